/* BackfillQueue (EASY's waiting queue) against a plain vector of the same jobs scanned from start to end: random sizes
 * and estimates, random pushes, requeues and erasures at random places, and after every change the head, the order
 * and every query next_fitting can be asked (each start slot, a range of free and unreserved counts and shadow
 * bounds, duplicate estimates included) compared with the scan. */
#include "policies/space_sharing/backfill_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <random>
#include <vector>

using namespace jobsched;

namespace {

/* The answers of a full scan for every start: the position in `jobs` of the first job at or after each position that
 * fits (jobs.size() when none does), filled from the back. */
std::vector<size_t> scan(const std::vector<const Job*>& jobs, int free_count, int unreserved_count, double bound)
{
  std::vector<size_t> first(jobs.size() + 1, jobs.size());
  for (size_t i = jobs.size(); i-- > 0;) {
    const Job& j = *jobs[i];
    const bool ends_in_time = j.estimate <= bound;
    first[i] = j.size <= (ends_in_time ? free_count : unreserved_count) ? i : first[i + 1];
  }
  return first;
}

/* The queue's slots of its live jobs, in order (walking next_fitting with counts every job meets). */
std::vector<size_t> live_slots(const BackfillQueue& q)
{
  std::vector<size_t> slots;
  const int any = std::numeric_limits<int>::max() - 1;
  for (size_t s = q.first(); s != BackfillQueue::npos; s = q.next_fitting(s + 1, any, any, [](double) { return true; }))
    slots.push_back(s);
  return slots;
}

void check_against_scan(const BackfillQueue& q, const std::vector<const Job*>& expected, std::mt19937& rng)
{
  ASSERT_EQ(q.size(), expected.size());
  ASSERT_EQ(q.empty(), expected.empty());
  ASSERT_EQ(q.jobs(), expected);
  if (expected.empty()) {
    EXPECT_EQ(q.first(), BackfillQueue::npos);
    return;
  }
  EXPECT_EQ(&q.front(), expected.front());
  const std::vector<size_t> slots = live_slots(q);
  ASSERT_EQ(slots.size(), expected.size());
  for (size_t i = 0; i < slots.size(); i++)
    ASSERT_EQ(&q.at(slots[i]), expected[i]);
  std::uniform_int_distribution<int> count(0, 40);
  std::uniform_real_distribution<double> bound(0, 120);
  for (int query = 0; query < 12; query++) {
    int free_count = count(rng);
    int unreserved_count = std::uniform_int_distribution<int>(0, free_count)(rng);
    const double shadow = query == 0 ? std::numeric_limits<double>::infinity() : bound(rng);
    auto ends_in_time = [&](double estimate) { return estimate <= shadow; };
    const std::vector<size_t> first = scan(expected, free_count, unreserved_count, shadow);
    // From every live slot, and from one past each (an emptied or later slot).
    for (size_t i = 0; i < slots.size(); i++)
      for (size_t from : {slots[i], slots[i] + 1}) {
        const size_t got = q.next_fitting(from, free_count, unreserved_count, ends_in_time);
        const size_t want = first[from == slots[i] ? i : i + 1];
        if (want == expected.size()) {
          ASSERT_EQ(got, BackfillQueue::npos) << "from slot " << from;
        } else {
          ASSERT_NE(got, BackfillQueue::npos) << "from slot " << from;
          ASSERT_EQ(&q.at(got), expected[want]) << "from slot " << from;
        }
      }
  }
}

TEST(BackfillQueue, NextFittingMatchesAFullScanUnderRandomChanges)
{
  std::mt19937 rng(23);
  std::deque<Job> store; // stable addresses
  std::vector<const Job*> expected;
  BackfillQueue q;
  std::uniform_int_distribution<int> size(1, 48);
  std::uniform_int_distribution<int> estimate(1, 100); // integers: equal estimates are common
  std::uniform_int_distribution<int> action(0, 9);
  JobId next_id = 1;
  for (int step = 0; step < 3000; step++) {
    const int a = action(rng);
    if (a < 5 || expected.empty()) { // arrival at the back
      Job j;
      j.id = next_id++;
      j.submit_time = static_cast<double>(step);
      j.size = size(rng);
      j.estimate = estimate(rng);
      store.push_back(j);
      q.push(store.back());
      expected.push_back(&store.back());
    } else if (a < 9) { // a start or a departure anywhere, the head often
      const size_t i = a == 5 ? 0 : std::uniform_int_distribution<size_t>(0, expected.size() - 1)(rng);
      const std::vector<size_t> slots = live_slots(q);
      ASSERT_EQ(&q.at(slots[i]), expected[i]);
      if (i == 0 && a == 5)
        q.pop_front();
      else
        q.erase(slots[i]);
      expected.erase(expected.begin() + static_cast<long>(i));
    } else { // a requeue: a job that left comes back at its submission place
      const Job& back = store[std::uniform_int_distribution<size_t>(0, store.size() - 1)(rng)];
      if (std::find(expected.begin(), expected.end(), &back) != expected.end()) continue;
      q.push_in_submission_order(back);
      auto later = std::find_if(expected.begin(), expected.end(), [&](const Job* j) { return j->id > back.id; });
      expected.insert(later, &back);
    }
    check_against_scan(q, expected, rng);
  }
}

/* Long runs of pushes and of erasures from the head: the slots run out and the queue is rebuilt, grown or shrunk,
 * many times; the order and the queries stay right. */
TEST(BackfillQueue, KeepsOrderAcrossRebuilds)
{
  std::mt19937 rng(7);
  std::deque<Job> store;
  std::vector<const Job*> expected;
  BackfillQueue q;
  JobId next_id = 1;
  for (int round = 0; round < 6; round++) {
    for (int k = 0; k < 300; k++) {
      Job j;
      j.id = next_id++;
      j.size = 1 + static_cast<int>(j.id % 13);
      j.estimate = static_cast<double>(j.id % 17);
      store.push_back(j);
      q.push(store.back());
      expected.push_back(&store.back());
    }
    for (int k = 0; k < 250; k++) {
      q.pop_front();
      expected.erase(expected.begin());
    }
    check_against_scan(q, expected, rng);
  }
  while (!q.empty()) {
    q.pop_front();
    expected.erase(expected.begin());
  }
  check_against_scan(q, expected, rng);
}

} // namespace
