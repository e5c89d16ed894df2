/* The message of the InputError that `f` throws; a test failure when it throws nothing or something else. */
#pragma once

#include "core/errors.hpp"

#include <gtest/gtest.h>

#include <string>

namespace jobsched::testing {

template <class F>
std::string input_error_of(F f)
{
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected InputError, got another exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << "expected InputError, nothing was thrown";
  return "";
}

} // namespace jobsched::testing
