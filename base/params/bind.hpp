// Binding a parameter table into an engine's parameter struct (issue 28): each row names the member
// it fills, so bind<T>(table, json) replaces the hand mappings; a bound row's default is the struct's
// initialiser (the table reads it), and Bound<T> keeps each value's origin beside the struct:
// given, default, or derived (with the rule that derived it).
#pragma once
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "base/params/settings.hpp"
#include "base/params/table.hpp"

namespace tdisc::params {

// Where a row's value lives in T: a member, or a member of a member (FlipParams::walk.plus_min).
template <class T, class M>
struct Field {
  std::function<M&(T&)> at;
  M fallback() const {
    T d{};
    return at(d);
  }
};

template <class T, class M>
Field<T, M> field(M T::*member) {
  return {[member](T& t) -> M& { return t.*member; }};
}
template <class T, class A, class M>
Field<T, M> field(A T::*outer, M A::*inner) {
  return {[outer, inner](T& t) -> M& { return (t.*outer).*inner; }};
}

// The spellings of a choice and the values they stand for: {{"auto", Symmetry::Auto}, …}.
template <class M>
using Names = std::vector<std::pair<std::string, M>>;

template <class M>
std::string spelling(const Names<M>& names, M value) {
  for (const auto& [s, v] : names)
    if (v == value) return s;
  TDISC_REQUIRE(false, "a value without a spelling");
  return "";
}
template <class M>
std::optional<M> value_of(const Names<M>& names, const std::string& s) {
  for (const auto& [n, v] : names)
    if (n == s) return v;
  return std::nullopt;
}

// p, writing into T through store(T&, value): a setter (a comma list into a vector, say).
template <class T>
Param bound(Param p, std::function<void(T&, const nlohmann::json&)> store) {
  p.bound_type = &typeid(T);
  p.store = [store = std::move(store)](void* target, const nlohmann::json& v) { store(*static_cast<T*>(target), v); };
  return p;
}
template <class T, class M>
Param bound(Param p, Field<T, M> f) {
  return bound<T>(std::move(p), [f](T& t, const nlohmann::json& v) { f.at(t) = v.get<M>(); });
}

// The builders of bound rows; the default is the struct's initialiser.
template <class T, class M>
Param integer(std::string name, Field<T, M> f, double lo, double hi, std::string help) {
  return bound(integer(std::move(name), nlohmann::json(f.fallback()), lo, hi, std::move(help)), f);
}
template <class T, class M>
Param number(std::string name, Field<T, M> f, double lo, double hi, std::string help) {
  return bound(number(std::move(name), nlohmann::json(f.fallback()), lo, hi, std::move(help)), f);
}
template <class T>
Param boolean(std::string name, Field<T, bool> f, std::string help) {
  return bound(boolean(std::move(name), f.fallback(), std::move(help)), f);
}
template <class T>
Param text(std::string name, Field<T, std::string> f, std::string help) {
  return bound(text(std::move(name), f.fallback(), std::move(help)), f);
}
// A choice bound to an enum (or any value): the struct holds the value, the table the spellings.
template <class T, class M>
Param choice(std::string name, Field<T, M> f, Names<M> names, std::string help) {
  std::vector<std::string> spellings;
  for (const auto& n : names) spellings.push_back(n.first);
  Param p = choice(std::move(name), spelling(names, f.fallback()), std::move(spellings), std::move(help));
  return bound<T>(std::move(p), [f, names](T& t, const nlohmann::json& v) {
    auto value = value_of(names, v.get<std::string>());
    TDISC_REQUIRE(value.has_value(), "unchecked choice " + v.dump());
    f.at(t) = *value;
  });
}

// An engine's parameters: the struct it reads, and each value's origin for the printout and run.json.
template <class T>
struct Bound {
  T value;
  Settings settings;

  bool given(const std::string& name) const { return settings.origin(name) == "given"; }
  // A value a rule chose, written through the row's binder, so the struct and the record agree.
  void derive(const std::string& name, nlohmann::json v, const std::string& rule) {
    const Param* p = settings.table().find(name);
    TDISC_REQUIRE(p && p->store, "no bound parameter " + name + " in table " + settings.table().name);
    p->store(&value, v);
    settings.set(name, std::move(v), "derived: " + rule);
  }
};

// Objects bound in this process (bind_checked): tests see that a search binds its parameters once
// per engine, and the printout and the walk read the same bound value.
inline std::atomic<long>& bind_count() {
  static std::atomic<long> n{0};
  return n;
}

// Throws UsageError "WHERE: p1; p2; …" when there are problems (where empty: no prefix).
inline void refuse(const std::string& where, const std::vector<std::string>& problems) {
  if (problems.empty()) return;
  std::string msg = where.empty() ? "" : where + ": ";
  for (size_t k = 0; k < problems.size(); ++k) msg += (k ? "; " : "") + problems[k];
  throw UsageError(msg);
}

// The struct filled from object over the defaults, every row through its binder. object must have
// passed check_object (and whatever rules across keys the engine adds): the caller's check is the
// one validation, this binds without checking again.
template <class T>
Bound<T> bind_checked(const Table& t, const nlohmann::json& object) {
  ++bind_count();
  Bound<T> b{T{}, Settings(t)};
  const nlohmann::json m = merged(t, object);
  for (const Param& p : t.params) {
    const std::string n = p.long_name();
    TDISC_REQUIRE(p.bound_type && *p.bound_type == typeid(T), "parameter " + n + " of table " + t.name + " is not bound here");
    if (!m.contains(n) || m[n].is_null()) continue;
    p.store(&b.value, m[n]);
    b.settings.set(n, m[n], object.contains(n) ? "given" : "default");
  }
  return b;
}

// check_object, then bind_checked. Throws UsageError "WHERE: params.KEY: what is wrong; …" for an
// unknown key, a wrong type, a value out of range (where: the file or flag the object came from;
// empty: no prefix).
template <class T>
Bound<T> bind(const Table& t, const nlohmann::json& object, const std::string& where) {
  refuse(where, check_object(t, object, "params."));
  return bind_checked<T>(t, object);
}

// What an engine bound in prepare (Engine::bind_params), kept with the object it was bound from:
// resolve() and run() reuse it while their params are that object, and bind again otherwise (a
// resumed run, a nested walk). One bind per engine call either way.
template <class T>
class BoundOnce {
public:
  void keep(const nlohmann::json& from, Bound<T> b) {
    from_ = from;
    bound_ = std::move(b);
  }
  // The kept value where params are what it was bound from, else bind(params).
  template <class Bind>
  Bound<T> for_params(const nlohmann::json& params, Bind bind) const {
    return bound_ && params == from_ ? *bound_ : bind(params);
  }

private:
  std::optional<Bound<T>> bound_;
  nlohmann::json from_;
};

}  // namespace tdisc::params
