// doctest's main for the sanitizer subset (tests/sanitize_subset.cmake): no
// peer engines, which that executable does not link.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
