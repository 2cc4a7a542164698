// The chat-completions client against a real scripted HTTP server on 127.0.0.1: good answers,
// structured-output body, error bodies of both shapes, retries with Retry-After, 500, timeouts,
// dropped connections, quota errors that are not retried.
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "src/llm/client.hpp"
#include "src/llm/json_extract.hpp"
#include "src/llm/proposer/requests.hpp"
#include "tests/llm/script_server.hpp"

using namespace tdisc;
using namespace tdisc::llm;
using test::ScriptServer;
using test::ScriptStep;

namespace {

// The scripted server answers at once, but a loaded machine can stall a thread for a second or more:
// the timeout is far above that, so only the cases about timeouts ever time out.
ClientConfig fast_config(const ScriptServer& server) {
  ClientConfig c;
  c.base_url = server.base_url();
  c.api_key = "sk-test-SECRET-123";
  c.timeout_s = 10.0;
  c.retry.max_attempts = 3;
  c.retry.base_delay_s = 0.05;
  return c;
}

// For the timeout cases: a timeout an instant answer never meets, against a delay (kNeverMs) the client
// never waits out (the server stops waiting when the client hangs up, so the delay costs nothing).
ClientConfig timeout_config(const ScriptServer& server) {
  ClientConfig c = fast_config(server);
  c.timeout_s = 2.0;
  return c;
}
constexpr int kNeverMs = 120000;

ChatRequest simple_request() {
  ChatRequest r;
  r.model = "m1";
  r.messages = {{"system", "be brief"}, {"user", "propose"}};
  r.schema = {{"type", "object"}, {"properties", {{"a", {{"type", "integer"}}}}}};
  return r;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("a good answer: content, usage, bearer token and nested json_schema sent", "[fast][llm][client]") {
  ScriptServer server({ScriptServer::completion(R"({"a": 1})", 321, 45)});
  ChatClient client(fast_config(server));
  ChatResult r = client.complete(simple_request());
  REQUIRE(r.ok());
  CHECK(r.content == R"({"a": 1})");
  CHECK(r.prompt_tokens == 321);
  CHECK(r.completion_tokens == 45);
  CHECK(r.attempts == 1);
  auto seen = server.requests();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].request_line == "POST /v1/chat/completions HTTP/1.1");
  CHECK(seen[0].headers.find("Authorization: Bearer sk-test-SECRET-123") != std::string::npos);
  auto body = nlohmann::json::parse(seen[0].body);
  CHECK(body["model"] == "m1");
  CHECK(body["messages"].size() == 2);
  CHECK(body["response_format"]["type"] == "json_schema");
  CHECK(body["response_format"]["json_schema"]["strict"] == true);
  CHECK(body["response_format"]["json_schema"]["name"] == "tdisc_proposal");
  CHECK(body["response_format"]["json_schema"]["schema"]["type"] == "object");
}

TEST_CASE("base URLs are normalised to …/chat/completions", "[fast][llm][client]") {
  CHECK(chat_completions_url("http://h:1/v1") == "http://h:1/v1/chat/completions");
  CHECK(chat_completions_url("http://h:1/v1/") == "http://h:1/v1/chat/completions");
  CHECK(chat_completions_url("https://x/v1/chat/completions") == "https://x/v1/chat/completions");
}

TEST_CASE("429 with Retry-After is waited for, then the answer arrives", "[fast][llm][client]") {
  ScriptServer server({ScriptServer::error(429, R"({"error":{"message":"slow down","type":"rate_limit_exceeded"}})",
                                           {"Retry-After: 1"}),
                       ScriptServer::completion("{}")});
  ChatClient client(fast_config(server));
  auto t0 = std::chrono::steady_clock::now();
  ChatResult r = client.complete(simple_request());
  REQUIRE(r.ok());
  CHECK(r.attempts == 2);
  CHECK(seconds_since(t0) >= 0.95);  // honoured the server's 1 s, not the 0.05 s backoff
  CHECK(server.served() == 2);
}

TEST_CASE("500 is retried with backoff; persistent 500 gives up with the nested message", "[fast][llm][client]") {
  SECTION("one 500, then OK") {
    ScriptServer server({ScriptServer::error(500, R"({"error":{"message":"boom","type":"server_error"}})"),
                         ScriptServer::completion("{}")});
    ChatClient client(fast_config(server));
    ChatResult r = client.complete(simple_request());
    CHECK(r.ok());
    CHECK(r.attempts == 2);
  }
  SECTION("500 every time") {
    std::vector<ScriptStep> s(3, ScriptServer::error(503, R"({"error":{"message":"overloaded","type":"server_error","code":"x1"}})"));
    ScriptServer server(s);
    ChatClient client(fast_config(server));
    ChatResult r = client.complete(simple_request());
    CHECK(r.status == CallStatus::http);
    CHECK(r.attempts == 3);
    CHECK(r.error.find("HTTP 503: overloaded (server_error, x1)") != std::string::npos);
  }
}

TEST_CASE("quota errors are not retried; other 4xx are not retried", "[fast][llm][client]") {
  SECTION("429 insufficient_quota") {
    ScriptServer server({ScriptServer::error(429, R"({"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}})"),
                         ScriptServer::completion("{}")});
    ChatClient client(fast_config(server));
    ChatResult r = client.complete(simple_request());
    CHECK(r.status == CallStatus::quota);
    CHECK(r.attempts == 1);
    CHECK(server.served() == 1);
  }
  SECTION("401 flat body") {
    ScriptServer server({ScriptServer::error(401, R"({"message":"bad key"})")});
    ChatClient client(fast_config(server));
    ChatResult r = client.complete(simple_request());
    CHECK(r.status == CallStatus::http);
    CHECK(r.attempts == 1);
    CHECK(r.error == "HTTP 401: bad key");
  }
}

TEST_CASE("error bodies: nested, flat message, flat error string, FastAPI detail, not JSON", "[fast][llm][client]") {
  ApiError nested = parse_api_error(R"({"error":{"message":"m","type":"t","code":42}})");
  CHECK(nested.message == "m");
  CHECK(nested.type == "t");
  CHECK(nested.code == "42");
  CHECK(parse_api_error(R"({"message":"flat","code":"c"})").describe() == "flat (c)");
  CHECK(parse_api_error(R"({"error":"model 'x' not found"})").message == "model 'x' not found");
  CHECK(parse_api_error(R"({"detail":"Not Found"})").message == "Not Found");
  CHECK(parse_api_error("<html>bad gateway</html>").message == "<html>bad gateway</html>");
  CHECK(parse_retry_after("7") == 7.0);
  CHECK(!parse_retry_after("soon"));
}

TEST_CASE("a timeout and a dropped connection are retried, then reported", "[fast][llm][client]") {
  SECTION("timeout then OK") {
    ScriptStep slow = ScriptServer::completion("{}");
    slow.delay_ms = kNeverMs;
    ScriptServer server({slow, ScriptServer::completion(R"({"b":2})")});
    ChatClient client(timeout_config(server));
    ChatResult r = client.complete(simple_request());
    REQUIRE(r.ok());
    CHECK(r.content == R"({"b":2})");
    CHECK(r.attempts == 2);
  }
  SECTION("dropped every time") {
    ScriptStep drop;
    drop.drop = true;
    ScriptServer server({drop, drop, drop});
    ChatClient client(fast_config(server));
    ChatResult r = client.complete(simple_request());
    CHECK(r.status == CallStatus::transport);
    CHECK(r.attempts == 3);
    CHECK(r.error.find("connection error") != std::string::npos);
  }
  SECTION("timeout every time") {
    ScriptStep slow = ScriptServer::completion("{}");
    slow.delay_ms = kNeverMs;
    ScriptServer server({slow, slow});
    ClientConfig c = timeout_config(server);
    c.retry.max_attempts = 2;
    ChatClient client(c);
    ChatResult r = client.complete(simple_request());
    CHECK(r.status == CallStatus::timeout);
    CHECK(r.attempts == 2);
  }
}

TEST_CASE("a stop (SIGINT, budget) ends a call in flight at once", "[fast][llm][client]") {
  ScriptStep slow = ScriptServer::completion("{}");
  slow.delay_ms = kNeverMs;
  ScriptServer server({slow});
  ClientConfig c = fast_config(server);
  c.timeout_s = 60;
  ChatClient client(c);
  auto t0 = std::chrono::steady_clock::now();
  ChatResult r = client.complete(simple_request(), [&] { return seconds_since(t0) > 0.3; });
  // Stopped within moments of 0.3 s; a call the stop missed would last its 60 s timeout.
  CHECK(seconds_since(t0) < 10.0);
  CHECK(r.status == CallStatus::transport);
  CHECK(r.attempts == 1);
  CHECK(r.error == "stopped during the call");
}

TEST_CASE("a server that rejects response_format is asked again without it", "[fast][llm][client]") {
  ScriptServer server({ScriptServer::error(400, R"({"error":{"message":"unknown field response_format"}})"),
                       ScriptServer::completion("{}")});
  ChatClient client(fast_config(server));
  ChatResult r = client.complete(simple_request());
  REQUIRE(r.ok());
  auto seen = server.requests();
  REQUIRE(seen.size() == 2);
  CHECK(nlohmann::json::parse(seen[1].body).contains("response_format") == false);
}

TEST_CASE("JSON is extracted from plain, fenced, prose and thinking replies", "[fast][llm][extract]") {
  CHECK(extract_json(R"({"x":1})").value->at("x") == 1);
  CHECK(extract_json("Here you go:\n```json\n{\"x\": 2}\n```\nGood luck.").value->at("x") == 2);
  CHECK(extract_json("I propose {\"x\": {\"y\": \"}\"}} as the recipe.").value->at("x").at("y") == "}");
  CHECK(extract_json("<think>maybe {\"x\":0}</think>{\"x\":3}").value->at("x") == 3);
  Extracted bad = extract_json("{\"x\": 1,, }");
  CHECK(!bad.value);
  CHECK(bad.why_not.find("invalid JSON") == 0);
  CHECK(extract_json("").why_not == "empty reply");
  CHECK(extract_json("[1,2]").why_not == "reply is JSON but not an object");
  CHECK(extract_json("no braces at all").why_not == "no JSON object found in the reply");
}

TEST_CASE("an answer holds its pool slot until it is read", "[fast][llm][client]") {
  // The engine tops up the pool after reading answers; an answer that lands in between (a quota error,
  // say) must still count, or a second call goes out before the first is seen (CI saw 3 requests
  // where the quota case allows 1).
  ScriptServer server({ScriptServer::error(429, R"({"error":{"message":"quota","type":"insufficient_quota"}})")});
  ChatClient client(fast_config(server));
  RequestPool pool(client, 1, nullptr);
  RequestTicket ticket;
  ticket.request = simple_request();
  pool.submit(ticket);
  auto t0 = std::chrono::steady_clock::now();
  while (pool.in_flight() > 0 && seconds_since(t0) < 20) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(pool.in_flight() == 0);
  CHECK(pool.unread() == 1);  // finished, not yet taken: no room for another call
  auto f = pool.take();
  REQUIRE(f);
  CHECK(f->result.status == CallStatus::quota);
  CHECK(pool.unread() == 0);
  CHECK(server.served() == 1);
}
