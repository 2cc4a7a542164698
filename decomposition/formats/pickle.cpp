// The pickle virtual machine (Python's Lib/pickle.py opcodes), reduced to numpy arrays; see pickle.hpp.
#include "decomposition/formats/pickle.hpp"

#include <cstdio>
#include <cstring>
#include <deque>
#include <map>

#include "base/error.hpp"

namespace tdisc::fmt {

namespace {

// Values live in the machine's arena and refer to each other by plain pointers: a pickle can
// build cycles (a list appended to itself through the memo) and chains as deep as it is long, which
// shared_ptr turned into leaks and a recursive destructor that overflowed the stack (fuzzing).
struct Value;
using Ref = Value*;

struct Value {
  enum Kind { None, Bool, Int, Str, Bytes, Tuple, List, Global, Array, Dtype, Mark } kind = None;
  long integer = 0;
  std::string text;        // Str, Bytes, Global ("module name"), Dtype ("i8")
  std::vector<Ref> items;  // Tuple, List
  NdArray array;           // Array; Dtype uses array's kind/size/byte order
};

struct Machine {
  const std::string& s;
  const std::string& path;
  const std::string& where;
  size_t pos = 0;
  std::vector<Ref> stack;
  std::map<long, Ref> memo;
  std::deque<Value> arena;  // owns every value; deque: growing it never moves one

  Ref make(Value::Kind k) {
    arena.emplace_back();
    arena.back().kind = k;
    return &arena.back();
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(path, 0, where + ": pickle byte " + std::to_string(pos) + ": " + what);
  }
  uint64_t le(int n) {
    if (pos + static_cast<size_t>(n) > s.size()) fail("truncated");
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(s[pos + static_cast<size_t>(k)]);
    pos += static_cast<size_t>(n);
    return v;
  }
  std::string take(uint64_t n) {
    if (n > s.size() - pos) fail("truncated");
    std::string out = s.substr(pos, n);
    pos += n;
    return out;
  }
  std::string line() {
    size_t end = s.find('\n', pos);
    if (end == std::string::npos) fail("truncated");
    std::string out = s.substr(pos, end - pos);
    pos = end + 1;
    return out;
  }
  Ref top() {
    if (stack.empty()) fail("stack underflow");
    return stack.back();
  }
  Ref pop() {
    if (stack.empty()) fail("stack underflow");
    Ref v = stack.back();
    stack.pop_back();
    return v;
  }
  std::vector<Ref> pop_to_mark() {
    std::vector<Ref> items;
    for (;;) {
      Ref v = pop();
      if (v->kind == Value::Mark) break;
      items.push_back(v);  // (inserting at the front was quadratic in the number of items)
    }
    return {items.rbegin(), items.rend()};
  }
  void push_tuple(std::vector<Ref> items) {
    Ref t = make(Value::Tuple);
    t->items = std::move(items);
    stack.push_back(t);
  }
  void push_global(const std::string& module, const std::string& name) {
    static const char* allowed[] = {"numpy.core.multiarray _reconstruct", "numpy._core.multiarray _reconstruct",
                                    "numpy ndarray", "numpy dtype"};
    std::string g = module + " " + name;
    bool ok = false;
    for (const char* a : allowed) ok = ok || g == a;
    if (!ok) fail("refers to " + module + "." + name + "; only numpy arrays are read from pickles");
    Ref v = make(Value::Global);
    v->text = g;
    stack.push_back(v);
  }

  void reduce() {
    Ref args = pop(), fn = pop();
    if (fn->kind != Value::Global || args->kind != Value::Tuple) fail("REDUCE of something other than a numpy global");
    if (fn->text.find("_reconstruct") != std::string::npos) {
      stack.push_back(make(Value::Array));  // the shape, dtype and data arrive with BUILD
    } else if (fn->text == "numpy dtype") {
      if (args->items.empty() || args->items[0]->kind != Value::Str) fail("numpy.dtype without a type string");
      Ref d = make(Value::Dtype);
      if (!parse_descr(args->items[0]->text, d->array)) fail("unsupported dtype " + args->items[0]->text);
      stack.push_back(d);
    } else {
      fail("cannot call " + fn->text);
    }
  }

  void build() {
    Ref state = pop();
    if (stack.empty()) fail("BUILD on an empty stack");
    Ref obj = stack.back();
    if (state->kind != Value::Tuple) fail("BUILD state is not a tuple");
    auto& st = state->items;
    if (obj->kind == Value::Dtype) {  // (version, byte order, …)
      if (st.size() >= 2 && st[1]->kind == Value::Str && !st[1]->text.empty()) obj->array.byte_order = st[1]->text[0];
      if (obj->array.byte_order == '=') obj->array.byte_order = '<';
      return;
    }
    if (obj->kind != Value::Array || st.size() != 5) fail("BUILD of an unexpected object");
    // ndarray.__setstate__((version, shape, dtype, is_fortran, data))
    NdArray& a = obj->array;
    if (st[1]->kind != Value::Tuple || st[2]->kind != Value::Dtype) fail("malformed ndarray state");
    for (auto& d : st[1]->items) {
      if (d->kind != Value::Int || d->integer < 0 || a.shape.size() >= 32) fail("malformed ndarray shape");
      a.shape.push_back(d->integer);
    }
    if (a.count() < 0) fail("ndarray shape too large");
    const NdArray& dt = st[2]->array;
    a.kind = dt.kind, a.item_size = dt.item_size, a.byte_order = dt.byte_order;
    a.fortran = st[3]->kind == Value::Bool && st[3]->integer;
    if (a.kind == 'O') {
      if (st[4]->kind != Value::List) fail("object array without a list of elements");
      // Each element is copied out; one array referenced many times through the memo would
      // multiply the memory (AlphaTensor's object arrays hold three).
      if (st[4]->items.size() > 64) fail("object array of more than 64 arrays");
      for (auto& x : st[4]->items) {
        if (x->kind != Value::Array || x->array.kind == 'O')
          fail("object array holds something other than numeric arrays");
        a.objects.push_back(x->array);
      }
      if (static_cast<long>(a.objects.size()) != a.count()) fail("object array has the wrong number of elements");
    } else {
      if (st[4]->kind != Value::Bytes) fail("numeric array without its bytes");
      a.data = st[4]->text;
      if (a.kind == 'O' || a.data.size() != static_cast<size_t>(a.count()) * static_cast<size_t>(a.item_size))
        fail("array data has the wrong length");
    }
  }

  // One opcode; false at STOP.
  bool step() {
    if (pos >= s.size()) fail("truncated (no STOP)");
    unsigned char op = static_cast<unsigned char>(s[pos++]);
    switch (op) {
      case 0x80: le(1); break;                           // PROTO
      case 0x95: le(8); break;                           // FRAME
      case '.': return false;                            // STOP
      case 'c': { std::string mod = line(); push_global(mod, line()); break; }  // GLOBAL
      case 0x93: { Ref n = pop(), m = pop(); push_global(m->text, n->text); break; }  // STACK_GLOBAL
      case 'q': memo[static_cast<long>(le(1))] = top(); break;  // BINPUT
      case 'r': memo[static_cast<long>(le(4))] = top(); break;  // LONG_BINPUT
      case 0x94: memo[static_cast<long>(memo.size())] = top(); break;  // MEMOIZE
      case 'h': case 'j': {                              // BINGET, LONG_BINGET
        long k = static_cast<long>(le(op == 'h' ? 1 : 4));
        if (!memo.count(k)) fail("memo key " + std::to_string(k) + " missing");
        stack.push_back(memo[k]);
        break;
      }
      case 'K': case 'M': case 'J': {                    // BININT1, BININT2, BININT
        Ref v = make(Value::Int);
        uint64_t x = le(op == 'K' ? 1 : op == 'M' ? 2 : 4);
        v->integer = op == 'J' ? static_cast<long>(static_cast<int32_t>(x)) : static_cast<long>(x);
        stack.push_back(v);
        break;
      }
      case 0x8a: {                                       // LONG1
        uint64_t n = le(1);
        if (n > 8) fail("integer too large");
        uint64_t x = n ? le(static_cast<int>(n)) : 0;
        if (n && n < 8 && (x >> (8 * n - 1)) & 1) x |= ~uint64_t(0) << (8 * n);
        Ref v = make(Value::Int);
        v->integer = static_cast<long>(static_cast<int64_t>(x));
        stack.push_back(v);
        break;
      }
      case 'N': stack.push_back(make(Value::None)); break;
      case 0x88: case 0x89: { Ref v = make(Value::Bool); v->integer = op == 0x88; stack.push_back(v); break; }
      case '(': stack.push_back(make(Value::Mark)); break;
      case ')': push_tuple({}); break;                   // EMPTY_TUPLE
      case 't': push_tuple(pop_to_mark()); break;        // TUPLE
      case 0x85: case 0x86: case 0x87: {                 // TUPLE1..3
        size_t n = op - 0x84u;
        std::vector<Ref> items(n);
        for (size_t k = n; k-- > 0;) items[k] = pop();
        push_tuple(std::move(items));
        break;
      }
      case ']': stack.push_back(make(Value::List)); break;  // EMPTY_LIST
      case 'a': { Ref x = pop(); if (stack.empty() || stack.back()->kind != Value::List) fail("APPEND to a non-list"); stack.back()->items.push_back(x); break; }
      case 'e': {                                        // APPENDS
        std::vector<Ref> items = pop_to_mark();
        if (stack.empty() || stack.back()->kind != Value::List) fail("APPENDS to a non-list");
        for (auto& x : items) stack.back()->items.push_back(x);
        break;
      }
      case 'C': case 'B': case 0x8e: {                   // SHORT_BINBYTES, BINBYTES, BINBYTES8
        Ref v = make(Value::Bytes);
        v->text = take(le(op == 'C' ? 1 : op == 'B' ? 4 : 8));
        stack.push_back(v);
        break;
      }
      case 0x8c: case 'X': case 0x8d: {                  // SHORT_BINUNICODE, BINUNICODE, BINUNICODE8
        Ref v = make(Value::Str);
        v->text = take(le(op == 0x8c ? 1 : op == 'X' ? 4 : 8));
        stack.push_back(v);
        break;
      }
      case 'R': reduce(); break;
      case 'b': build(); break;
      default: {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        --pos;
        fail(std::string("unsupported pickle opcode ") + hex);
      }
    }
    return true;
  }
};

}  // namespace

NdArray unpickle_array(const std::string& pickle, const std::string& path, const std::string& where) {
  Machine m{pickle, path, where, 0, {}, {}, {}};
  while (m.step()) {
  }
  if (m.stack.size() != 1 || m.stack.back()->kind != Value::Array) m.fail("the pickle does not hold one numpy array");
  return m.stack.back()->array;
}

}  // namespace tdisc::fmt
