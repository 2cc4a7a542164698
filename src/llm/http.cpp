// One HTTP POST over libcurl (no signals, per-call timeout, headers captured for Retry-After), and
// the parsing of both error-body shapes. Nothing here logs a header: the bearer token stays in memory.
#include "src/llm/http.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <mutex>
#include <nlohmann/json.hpp>

#include "base/utf8.hpp"
#include "decomposition/json_input.hpp"

namespace tdisc::llm {

namespace {

void global_init_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// Appends what arrived unless the reply would pass its cap: returning less than given makes libcurl
// end the transfer (CURLE_WRITE_ERROR), so a 50 MB reply costs at most the cap.
size_t append_body(char* data, size_t size, size_t count, void* user) {
  auto* reply = static_cast<HttpReply*>(user);
  if (reply->body.size() + size * count > reply->max_body_bytes) {
    reply->too_large = true;
    return 0;
  }
  reply->body.append(data, size * count);
  return size * count;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// Collects Retry-After / retry-after-ms; a new status line (redirect, 100) starts over.
size_t read_header(char* data, size_t size, size_t count, void* user) {
  auto* reply = static_cast<HttpReply*>(user);
  std::string line(data, size * count);
  if (line.rfind("HTTP/", 0) == 0) reply->retry_after.reset();
  size_t colon = line.find(':');
  if (colon == std::string::npos) return size * count;
  std::string name = lower(trim(line.substr(0, colon))), value = trim(line.substr(colon + 1));
  if (name == "retry-after-ms") {
    char* end = nullptr;
    double ms = std::strtod(value.c_str(), &end);
    if (end != value.c_str() && ms >= 0) reply->retry_after = ms / 1000.0;
  } else if (name == "retry-after" && !reply->retry_after) {
    reply->retry_after = parse_retry_after(value);
  }
  return size * count;
}

int progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  const auto* abort = static_cast<const std::function<bool()>*>(user);
  return (*abort && (*abort)()) ? 1 : 0;  // non-zero makes libcurl end the transfer
}

std::string json_text(const nlohmann::json& j) {
  if (j.is_null()) return "";
  if (j.is_string()) return j.get<std::string>();
  if (j.is_structured()) return j.is_array() ? "(an array)" : "(an object)";
  return j.dump();
}

}  // namespace

HttpReply http_post(const HttpRequest& request) {
  global_init_once();
  HttpReply reply;
  CURL* curl = curl_easy_init();
  if (!curl) {
    reply.transport_error = "curl_easy_init failed";
    return reply;
  }
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip for large prompts
  for (const auto& h : request.headers) headers = curl_slist_append(headers, h.c_str());
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout_s * 1000));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(request.connect_timeout_s * 1000));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
  reply.max_body_bytes = request.max_reply_bytes;
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, read_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &reply);
  if (request.abort) {
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &request.abort);
  }
  auto t0 = std::chrono::steady_clock::now();
  CURLcode rc = curl_easy_perform(curl);
  reply.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rc == CURLE_OK) {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply.status);
  } else {
    reply.status = 0;
    reply.timed_out = rc == CURLE_OPERATION_TIMEDOUT;
    reply.aborted = rc == CURLE_ABORTED_BY_CALLBACK;
    reply.transport_error = reply.too_large ? "reply larger than " + std::to_string(request.max_reply_bytes) +
                                                  " bytes, refused (TDISC_MAX_INPUT_MB raises the ceiling)"
                                            : curl_easy_strerror(rc);
    if (reply.too_large) reply.body.clear();
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return reply;
}

std::string ApiError::describe() const {
  std::string s = message.empty() ? "(no message)" : message;
  if (!type.empty() || !code.empty()) s += " (" + type + (type.empty() || code.empty() ? "" : ", ") + code + ")";
  return s;
}

ApiError parse_api_error(const std::string& body) {
  ApiError e;
  JsonParsed parsed = try_parse_json_input(body, JsonSource{"reply", "an error body", input_ceiling(InputKind::server_reply),
                                                           kMaxNesting, true});
  if (!parsed.value || !parsed.value->is_object()) {
    e.message = utf8_excerpt(body, 300);
    return e;
  }
  const nlohmann::json& j = *parsed.value;
  const nlohmann::json* src = &j;
  if (j.contains("error") && j["error"].is_object()) src = &j["error"];                   // nested
  else if (j.contains("error") && j["error"].is_string()) e.message = j["error"].get<std::string>();  // Ollama
  if (src->contains("message")) e.message = json_text((*src)["message"]);
  else if (e.message.empty() && src->contains("detail")) e.message = json_text((*src)["detail"]);  // FastAPI
  if (src->contains("type")) e.type = json_text((*src)["type"]);
  if (src->contains("code")) e.code = json_text((*src)["code"]);
  e.message = utf8_excerpt(e.message, 300), e.type = utf8_excerpt(e.type, 100), e.code = utf8_excerpt(e.code, 100);
  return e;
}

std::optional<double> parse_retry_after(const std::string& value) {
  std::string v = trim(value);
  if (v.empty()) return std::nullopt;
  char* end = nullptr;
  double s = std::strtod(v.c_str(), &end);
  if (end && *end == '\0' && s >= 0) return s;
  time_t when = curl_getdate(v.c_str(), nullptr);
  if (when < 0) return std::nullopt;
  return std::max(0.0, std::difftime(when, std::time(nullptr)));
}

}  // namespace tdisc::llm
