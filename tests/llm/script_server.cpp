// The scripted chat-completions server: POSIX sockets, a thread per connection, every loop bounded
// by a poll timeout, and the whole server stops by itself when idle.
#include "tests/llm/script_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace tdisc::test {

namespace {

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 408: return "Request Timeout";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Status";
  }
}

void send_all(int fd, const std::string& data) {
  size_t sent = 0;
  for (int guard = 0; sent < data.size() && guard < 10000; ++guard) {
    ssize_t k = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (k <= 0) return;
    sent += static_cast<size_t>(k);
  }
}

}  // namespace

ScriptServer::ScriptServer(std::vector<ScriptStep> script, int idle_limit_ms)
    : script_(std::move(script)), idle_limit_ms_(idle_limit_ms) {
  start();
}

ScriptServer::ScriptServer(Responder responder, int idle_limit_ms)
    : responder_(std::move(responder)), idle_limit_ms_(idle_limit_ms) {
  start();
}

double ScriptServer::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

void ScriptServer::start() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) throw std::runtime_error("ScriptServer: socket failed");
  int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;  // any free port
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listen_fd_, 64) != 0)
    throw std::runtime_error("ScriptServer: bind/listen failed");
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { serve(); });
}

ScriptServer::~ScriptServer() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  for (auto& t : handlers_) t.join();
  ::close(listen_fd_);
}

std::vector<SeenRequest> ScriptServer::requests() const {
  std::lock_guard lock(mutex_);
  return seen_;
}

ScriptStep ScriptServer::completion(const std::string& content, int prompt_tokens, int completion_tokens) {
  nlohmann::json body = {
      {"id", "chatcmpl-test"},
      {"object", "chat.completion"},
      {"model", "scripted"},
      {"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}}, {"finish_reason", "stop"}}}},
      {"usage", {{"prompt_tokens", prompt_tokens}, {"completion_tokens", completion_tokens},
                 {"total_tokens", prompt_tokens + completion_tokens}}}};
  return ScriptStep{200, body.dump(), {}, 0, false};
}

ScriptStep ScriptServer::error(int status, const std::string& body, std::vector<std::string> headers) {
  return ScriptStep{status, body, std::move(headers), 0, false};
}

void ScriptServer::serve() {
  auto last = std::chrono::steady_clock::now();
  while (!stop_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 50) > 0 && (p.revents & POLLIN)) {
      int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd >= 0)
        handlers_.emplace_back([this, fd] {
          handle(fd);
          ::close(fd);
        });
      last = std::chrono::steady_clock::now();
    } else if (std::chrono::steady_clock::now() - last > std::chrono::milliseconds(idle_limit_ms_)) {
      return;  // idle too long: stop by ourselves
    }
  }
}

bool ScriptServer::read_request(int fd, SeenRequest& out) {
  std::string data;
  size_t header_end = std::string::npos, need = 0;
  for (int guard = 0; guard < 2000; ++guard) {  // at most 2000 reads of ≤ 100 ms
    if (header_end != std::string::npos && data.size() >= need) break;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) {
      if (stop_) return false;
      continue;
    }
    char buf[8192];
    ssize_t k = ::recv(fd, buf, sizeof buf, 0);
    if (k <= 0) return false;
    data.append(buf, static_cast<size_t>(k));
    if (header_end == std::string::npos && (header_end = data.find("\r\n\r\n")) != std::string::npos) {
      size_t length = 0;
      size_t at = data.find("Content-Length:");
      if (at == std::string::npos) at = data.find("content-length:");
      if (at != std::string::npos && at < header_end) length = std::stoul(data.substr(at + 15));
      need = header_end + 4 + length;
    }
  }
  if (header_end == std::string::npos || data.size() < need) return false;
  size_t line_end = data.find("\r\n");
  out.request_line = data.substr(0, line_end);
  out.headers = data.substr(line_end + 2, header_end - line_end - 2);
  out.body = data.substr(header_end + 4, need - header_end - 4);
  return true;
}

bool ScriptServer::wait_unless_peer_closed(int fd, int delay_ms) {
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(delay_ms);
  while (std::chrono::steady_clock::now() < until && !stop_) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 20) > 0) {
      char c;
      if (::recv(fd, &c, 1, MSG_PEEK) <= 0) return false;  // the client gave up (its timeout)
    }
  }
  return !stop_;
}

void ScriptServer::handle(int fd) {
  SeenRequest req;
  if (!read_request(fd, req)) return;
  size_t slot;
  {
    std::lock_guard lock(mutex_);
    req.index = next_.fetch_add(1);
    req.arrived_s = now();
    slot = seen_.size();
    seen_.push_back(req);
  }
  size_t i = req.index;
  ScriptStep step = responder_ ? responder_(i)
                    : i < script_.size() ? script_[i] : error(500, R"({"error":{"message":"script exhausted"}})");
  if (step.delay_ms > 0 && !wait_unless_peer_closed(fd, step.delay_ms)) return;
  if (step.drop) return;  // close without a word: a dropped connection
  {
    std::lock_guard lock(mutex_);
    seen_[slot].answered_s = now();
  }
  std::string head = "HTTP/1.1 " + std::to_string(step.status) + " " + reason_phrase(step.status) + "\r\n" +
                     "Content-Type: application/json\r\nConnection: close\r\nContent-Length: " +
                     std::to_string(step.body.size()) + "\r\n";
  for (const auto& h : step.headers) head += h + "\r\n";
  send_all(fd, head + "\r\n" + step.body);
}

}  // namespace tdisc::test
