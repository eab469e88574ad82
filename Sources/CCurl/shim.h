#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic; Swift cannot call a
// variadic C function, so each argument type the client uses gets a typed door here.

/// The signature of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *user);

static inline CURLcode ccurl_set_long(CURL *easy, CURLoption option, long value) {
  return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ccurl_set_offset(CURL *easy, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ccurl_set_pointer(CURL *easy, CURLoption option, void *value) {
  return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ccurl_set_string(CURL *easy, CURLoption option, const char *value) {
  return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ccurl_set_list(CURL *easy, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ccurl_set_callback(CURL *easy, CURLoption option, ccurl_data_callback value) {
  return curl_easy_setopt(easy, option, value);
}
/// The signature of CURLOPT_SEEKFUNCTION.
typedef int (*ccurl_seek_callback)(void *user, curl_off_t offset, int origin);
static inline CURLcode ccurl_set_seek_callback(CURL *easy, ccurl_seek_callback value) {
  return curl_easy_setopt(easy, CURLOPT_SEEKFUNCTION, value);
}
static inline CURLcode ccurl_get_long(CURL *easy, CURLINFO info, long *value) {
  return curl_easy_getinfo(easy, info, value);
}
static inline CURLMcode ccurl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}
/// The result of a finished transfer (a union member Swift reaches awkwardly).
static inline CURLcode ccurl_message_result(const CURLMsg *message) { return message->data.result; }
#endif
