// A real HTTP/1.1 server on 127.0.0.1 that speaks just enough chat completions for the tests: it
// answers each request with the next step of a script (status, headers, body, delay, or a drop),
// or with what a responder function returns for the request's index. Connections are served
// concurrently (a thread each), and every request's arrival and answer times are logged.
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tdisc::test {

struct ScriptStep {
  int status = 200;
  std::string body;
  std::vector<std::string> headers;  // extra "Name: value" lines
  int delay_ms = 0;                  // wait before answering (longer than the client's timeout: a timeout)
  bool drop = false;                 // close the connection without a reply
};

struct SeenRequest {
  std::string request_line, headers, body;
  size_t index = 0;         // arrival order, 0-based
  double arrived_s = 0;     // since the server started
  double answered_s = -1;   // when the answer was sent (−1: dropped, or the client left first)
};

using Responder = std::function<ScriptStep(size_t index)>;

class ScriptServer {
public:
  // Serves the script in order, then answers 500 "script exhausted". Stops by itself after
  // `idle_limit_ms` without a connection, or when destroyed.
  explicit ScriptServer(std::vector<ScriptStep> script, int idle_limit_ms = 30000);
  // Answers request i with responder(i), for ever.
  explicit ScriptServer(Responder responder, int idle_limit_ms = 30000);
  ~ScriptServer();
  ScriptServer(const ScriptServer&) = delete;
  ScriptServer& operator=(const ScriptServer&) = delete;

  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  std::vector<SeenRequest> requests() const;
  size_t served() const { return next_.load(); }

  // A chat-completions body whose message content is `content`.
  static ScriptStep completion(const std::string& content, int prompt_tokens = 120, int completion_tokens = 40);
  static ScriptStep error(int status, const std::string& body, std::vector<std::string> headers = {});

private:
  void start();
  void serve();
  void handle(int fd);
  double now() const;
  bool read_request(int fd, SeenRequest& out);
  bool wait_unless_peer_closed(int fd, int delay_ms);

  std::vector<ScriptStep> script_;
  Responder responder_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  std::vector<std::thread> handlers_;  // one per connection, joined when the server stops
  int idle_limit_ms_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<size_t> next_{0};
  std::atomic<bool> stop_{false};
  mutable std::mutex mutex_;
  std::vector<SeenRequest> seen_;
  std::thread thread_;
};

}  // namespace tdisc::test
