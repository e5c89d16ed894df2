/* The plugin loader in process: a refused library leaves no name behind (what it registered while loading is dropped,
 * the version checked before anything is kept), a good one is kept once whatever path names it, and the registries
 * check duplicates again once loading is over. The libraries are tests/plugins/'s, built beside this test. */
#include "core/errors.hpp"
#include "policy/plugin_loader.hpp"
#include "policy/policy.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

using namespace jobsched;
namespace fs = std::filesystem;

namespace {

std::string library(const std::string& name)
{
  return std::string(TEST_PLUGIN_DIR) + "/libtest_plugin_" + name + ".so";
}

/* The message of the InputError `load` throws, or "" when it throws none. */
template <class F>
std::string error_of(F load)
{
  try {
    load();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::unique_ptr<Policy> no_policy(const PolicyEnv&)
{
  return nullptr;
}

} // namespace

TEST(PluginLoader, RefusedForATakenNameKeepsNoneOfItsNames)
{
  const std::string fcfs_description = policy_registry().get("fcfs").description;
  EXPECT_NE(error_of([] { load_plugin(library("taken_name"), "test"); }).find("policy 'fcfs' is already registered"),
            std::string::npos);
  EXPECT_FALSE(policy_registry().contains("test-fresh-name")); // registered before the taken name, dropped with it
  EXPECT_EQ(policy_registry().get("fcfs").description, fcfs_description);
  EXPECT_TRUE(loaded_plugins().empty());
  // Loading is over: a duplicate is an error again, not set aside.
  EXPECT_THROW(policy_registry().add(PolicyInfo{"fcfs", "again", {}, no_policy}), PolicyError);
}

TEST(PluginLoader, OtherVersionKeepsNothing)
{
  EXPECT_NE(
      error_of([] { load_plugin(library("other_version"), "test"); }).find("built against jobsched '0.0.1-other'"),
      std::string::npos);
  EXPECT_FALSE(policy_registry().contains("test-other-version"));
  EXPECT_NE(error_of([] { load_plugin(library("no_version"), "test"); }).find("not a jobsched plugin"),
            std::string::npos);
  EXPECT_FALSE(policy_registry().contains("test-no-version"));
  EXPECT_TRUE(loaded_plugins().empty());
}

TEST(PluginLoader, GoodLibraryLoadsOnceWithItsHash)
{
  EXPECT_FALSE(policy_registry().contains("test-lifo"));
  load_plugin(library("lifo"), "test");
  ASSERT_EQ(loaded_plugins().size(), 1U);
  const LoadedPlugin& p = loaded_plugins()[0];
  EXPECT_EQ(p.file, fs::canonical(library("lifo")));
  EXPECT_EQ(p.policies, std::vector<std::string>{"test-lifo"});
  EXPECT_TRUE(p.allocators.empty());
  EXPECT_FALSE(policy_registry().get("test-lifo").time_sharing());
  // FNV-1a 64 of the bytes, here byte by byte with the published constants.
  std::ifstream in(library("lifo"), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  unsigned long long h = 14695981039346656037ULL;
  for (unsigned char c : bytes)
    h = (h ^ c) * 1099511628211ULL;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", h);
  EXPECT_EQ(p.hash, hex);
  // The same file again, by another path (a symbolic link, a path with a detour): nothing happens.
  const fs::path link = fs::temp_directory_path() / ("jobsched-plugin-link-" + std::to_string(::getpid()) + ".so");
  fs::create_symlink(fs::canonical(library("lifo")), link);
  EXPECT_NO_THROW(load_plugin(link, "test"));
  fs::remove(link);
  EXPECT_NO_THROW(load_plugin(std::string(TEST_PLUGIN_DIR) + "/../tests/libtest_plugin_lifo.so", "test"));
  EXPECT_EQ(loaded_plugins().size(), 1U);
  // A name the plugin took is taken for the next library, which names the first one.
  EXPECT_NE(error_of([] { load_plugin(library("taken_name"), "test"); }).find("already registered by jobsched itself"),
            std::string::npos);
}

TEST(PluginLoader, PathOfFoldersAndFiles)
{
  // A folder entry loads its *.so files in name order: empty (refused, registers nothing) comes before lifo.
  const std::string message = error_of([] { load_plugin_path(std::string("::") + TEST_PLUGIN_DIR, "PATH"); });
  EXPECT_EQ(message, "PATH: " + std::string(TEST_PLUGIN_DIR) +
                         "/libtest_plugin_empty.so: registers no policy and no allocator (a static PolicyRegistration "
                         "or AllocatorRegistration does)");
  EXPECT_TRUE(loaded_plugins().empty());
  load_plugin_path(library("lifo") + ":" + library("lifo"), "PATH");
  EXPECT_EQ(loaded_plugins().size(), 1U);
}
