// SPDX-License-Identifier: GPL-2.0
/*
 * cc_json_view_jansson.c - cc_json_view's tests against the jansson
 * implementation of the JSON view (userspace/cc/json_view_jansson.c, the
 * static flavor's; Documentation/compiler.rst, "JSON parser"): the same
 * texts, taken or refused alike and read the same as jansson reads them.
 */
#include "cc_json_view.c"
