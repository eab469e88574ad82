#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
// libcurl's types and constants come from its header at build time; its code is opened with
// dlopen at the first request, not linked. A command that never talks to an instance
// (--version, status, queue, watch) then starts without libcurl and the ~30 libraries it
// brings (TLS, Kerberos, LDAP, SSH, …): fewer objects for the dynamic linker to load and to
// search on every symbol lookup, and less memory. Every function Swift calls is a `ccurl_`
// wrapper below; the `curl_` functions themselves must never be called (nothing links them).
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

/// The sonames tried in order: the OpenSSL build (Debian's and Ubuntu's libcurl4 /
/// libcurl4t64), then the GnuTLS build (libcurl3-gnutls), whose ABI is the same.
static inline void *ccurl_library(void) {
  static void *handle;  // one per translation unit; dlopen returns the same handle to each
  void *h = __atomic_load_n(&handle, __ATOMIC_ACQUIRE);
  if (h) return h;
  h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!h) h = dlopen("libcurl-gnutls.so.4", RTLD_NOW | RTLD_LOCAL);
  if (h) __atomic_store_n(&handle, h, __ATOMIC_RELEASE);
  return h;
}

/// NULL when libcurl is loaded with every function used here; else the loader's words.
static inline const char *ccurl_load_problem(void) {
  static const char *const names[] = {
      "curl_global_init", "curl_easy_init", "curl_easy_cleanup", "curl_easy_reset", "curl_easy_setopt",
      "curl_easy_getinfo", "curl_multi_init", "curl_multi_cleanup", "curl_multi_add_handle",
      "curl_multi_remove_handle", "curl_multi_perform", "curl_multi_poll", "curl_multi_info_read",
      "curl_multi_wakeup", "curl_multi_setopt", "curl_slist_append", "curl_slist_free_all"};
  void *h = ccurl_library();
  if (!h) {
    dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);  // again, for the first soname's own words
    const char *why = dlerror();
    return why ? why : "libcurl.so.4: cannot open shared object file";
  }
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (!dlsym(h, names[i])) return "libcurl.so.4 lacks a function verdicts needs (libcurl 7.68 or newer is)";
  }
  return NULL;
}

/// The address of one libcurl function, looked up once (per translation unit).
#define CCURL_SYMBOL(name)                                          \
  static void *cached;                                              \
  void *fn = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);            \
  if (!fn) {                                                        \
    void *h = ccurl_library();                                      \
    fn = h ? dlsym(h, name) : NULL;                                 \
    if (fn) __atomic_store_n(&cached, fn, __ATOMIC_RELEASE);        \
  }

static inline CURLcode ccurl_global_init(long flags) {
  CCURL_SYMBOL("curl_global_init")
  return fn ? ((CURLcode(*)(long))fn)(flags) : CURLE_FAILED_INIT;
}
static inline CURL *ccurl_easy_init(void) {
  CCURL_SYMBOL("curl_easy_init")
  return fn ? ((CURL * (*)(void)) fn)() : NULL;
}
static inline void ccurl_easy_cleanup(CURL *easy) {
  CCURL_SYMBOL("curl_easy_cleanup")
  if (fn) ((void (*)(CURL *))fn)(easy);
}
static inline void ccurl_easy_reset(CURL *easy) {
  CCURL_SYMBOL("curl_easy_reset")
  if (fn) ((void (*)(CURL *))fn)(easy);
}
static inline CURLM *ccurl_multi_init(void) {
  CCURL_SYMBOL("curl_multi_init")
  return fn ? ((CURLM * (*)(void)) fn)() : NULL;
}
static inline CURLMcode ccurl_multi_cleanup(CURLM *multi) {
  CCURL_SYMBOL("curl_multi_cleanup")
  return fn ? ((CURLMcode(*)(CURLM *))fn)(multi) : CURLM_INTERNAL_ERROR;
}
static inline CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *easy) {
  CCURL_SYMBOL("curl_multi_add_handle")
  return fn ? ((CURLMcode(*)(CURLM *, CURL *))fn)(multi, easy) : CURLM_INTERNAL_ERROR;
}
static inline CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *easy) {
  CCURL_SYMBOL("curl_multi_remove_handle")
  return fn ? ((CURLMcode(*)(CURLM *, CURL *))fn)(multi, easy) : CURLM_INTERNAL_ERROR;
}
static inline CURLMcode ccurl_multi_perform(CURLM *multi, int *running) {
  CCURL_SYMBOL("curl_multi_perform")
  return fn ? ((CURLMcode(*)(CURLM *, int *))fn)(multi, running) : CURLM_INTERNAL_ERROR;
}
static inline CURLMcode ccurl_multi_poll(
    CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *numfds) {
  CCURL_SYMBOL("curl_multi_poll")
  typedef CURLMcode (*poll_fn)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
  return fn ? ((poll_fn)fn)(multi, extra, count, timeout_ms, numfds) : CURLM_INTERNAL_ERROR;
}
static inline CURLMsg *ccurl_multi_info_read(CURLM *multi, int *left) {
  CCURL_SYMBOL("curl_multi_info_read")
  return fn ? ((CURLMsg * (*)(CURLM *, int *)) fn)(multi, left) : NULL;
}
static inline CURLMcode ccurl_multi_wakeup(CURLM *multi) {
  CCURL_SYMBOL("curl_multi_wakeup")
  return fn ? ((CURLMcode(*)(CURLM *))fn)(multi) : CURLM_INTERNAL_ERROR;
}
static inline struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *text) {
  CCURL_SYMBOL("curl_slist_append")
  return fn ? ((struct curl_slist * (*)(struct curl_slist *, const char *)) fn)(list, text) : NULL;
}
static inline void ccurl_slist_free_all(struct curl_slist *list) {
  CCURL_SYMBOL("curl_slist_free_all")
  if (fn) ((void (*)(struct curl_slist *))fn)(list);
}

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic; Swift cannot call a
// variadic C function, so each argument type the client uses gets a typed wrapper here.
typedef CURLcode (*ccurl_setopt_fn)(CURL *, CURLoption, ...);
#define CCURL_SETOPT(value)                                              \
  CCURL_SYMBOL("curl_easy_setopt")                                        \
  return fn ? ((ccurl_setopt_fn)fn)(easy, option, value) : CURLE_FAILED_INIT;

/// The signature of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *user);

static inline CURLcode ccurl_set_long(CURL *easy, CURLoption option, long value) { CCURL_SETOPT(value) }
static inline CURLcode ccurl_set_offset(CURL *easy, CURLoption option, curl_off_t value) { CCURL_SETOPT(value) }
static inline CURLcode ccurl_set_pointer(CURL *easy, CURLoption option, void *value) { CCURL_SETOPT(value) }
static inline CURLcode ccurl_set_string(CURL *easy, CURLoption option, const char *value) { CCURL_SETOPT(value) }
static inline CURLcode ccurl_set_list(CURL *easy, CURLoption option, struct curl_slist *value) {
  CCURL_SETOPT(value)
}
static inline CURLcode ccurl_set_callback(CURL *easy, CURLoption option, ccurl_data_callback value) {
  CCURL_SETOPT(value)
}
/// The signature of CURLOPT_SEEKFUNCTION.
typedef int (*ccurl_seek_callback)(void *user, curl_off_t offset, int origin);
static inline CURLcode ccurl_set_seek_callback(CURL *easy, ccurl_seek_callback value) {
  CURLoption option = CURLOPT_SEEKFUNCTION;
  CCURL_SETOPT(value)
}
/// The signature of CURLOPT_PREREQFUNCTION (libcurl 7.80 and later): called as each attempt of a
/// transfer is about to write its request on a connection, the first and any libcurl retries.
typedef int (*ccurl_prereq_callback)(void *user, char *remote_ip, char *local_ip, int remote_port, int local_port);
/// CURLE_UNKNOWN_OPTION from a libcurl older than 7.80, which lacks the callback.
static inline CURLcode ccurl_set_prereq_callback(CURL *easy, ccurl_prereq_callback value) {
  CURLoption option = CURLOPT_PREREQFUNCTION;
  CCURL_SETOPT(value)
}
static inline CURLcode ccurl_get_long(CURL *easy, CURLINFO info, long *value) {
  CCURL_SYMBOL("curl_easy_getinfo")
  return fn ? ((CURLcode(*)(CURL *, CURLINFO, ...))fn)(easy, info, value) : CURLE_FAILED_INIT;
}
static inline CURLMcode ccurl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
  CCURL_SYMBOL("curl_multi_setopt")
  return fn ? ((CURLMcode(*)(CURLM *, CURLMoption, ...))fn)(multi, option, value) : CURLM_INTERNAL_ERROR;
}
/// The result of a finished transfer (a union member Swift reaches awkwardly).
static inline CURLcode ccurl_message_result(const CURLMsg *message) { return message->data.result; }
#endif
