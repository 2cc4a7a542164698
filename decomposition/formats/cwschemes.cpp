// AntoineTilloy/explicit-matmul-schemes (docs/format.md there): an entry schemes/<n>.json
// (format cwschemes-catalogue-entry-v1; n, rank as decimal strings; field Q) names a root object by
// the SHA-256 of its uncompressed bytes, stored as src/cwschemes/data/objects/<sha256>.gz. An
// explicit root (explicit-qcsr-square-v1) names a `source` such as seeds/explicit14_1593.npz, which
// data/index.json's "paths" maps to another object: an fmmp.qcsr.v1 .npz (read_qcsr_npz; U, V read
// A, B and W writes C row-major). Every object's digest is checked before it is used. Other roots
// (CW batches, quotients, products) are construction recipes, not coefficient tables: refused.
#include "decomposition/formats/cwschemes.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/io.hpp"
#include "base/gzip.hpp"
#include "decomposition/formats/readers.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/sha256.hpp"

namespace tdisc::fmt {

namespace fs = std::filesystem;

namespace {

const char* kEntryFormat = "cwschemes-catalogue-entry-v1";
const char* kExplicitFormat = "explicit-qcsr-square-v1";

fs::path data_dir(const fs::path& checkout) { return checkout / "src" / "cwschemes" / "data"; }

std::string text_field(const nlohmann::json& j, const char* key, const std::string& path) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_string())
    throw InputError(path, 0, std::string("\"") + key + "\" must be a string");
  return j[key].get<std::string>();
}

// "14" → 14; the catalogue writes sizes and ranks as decimal strings (they exceed 2^53 further on),
// an object may write them as JSON integers.
long decimal_field(const nlohmann::json& j, const char* key, long max, const std::string& path) {
  const bool number = j.is_object() && j.contains(key) && j[key].is_number_unsigned();
  const std::string t = number ? std::to_string(j[key].get<unsigned long>()) : text_field(j, key, path);
  auto v = parse_count(t, max);
  if (!v || *v < 1) throw InputError(path, 0, std::string("\"") + key + "\": \"" + excerpt(t) + "\" is not a count up to " + std::to_string(max));
  return *v;
}

bool is_sha256(const std::string& h) {
  return h.size() == 64 && std::all_of(h.begin(), h.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// The uncompressed object `hash`, its digest checked: a damaged or substituted copy is refused.
std::string object_bytes(const fs::path& checkout, const std::string& hash, const std::string& path) {
  if (!is_sha256(hash)) throw InputError(path, 0, "object name \"" + excerpt(hash) + "\" is not a SHA-256 digest");
  const std::string file = (data_dir(checkout) / "objects" / (hash + ".gz")).string();
  const std::string bytes = gunzip(file, read_text_file(file, InputKind::gzip_member));
  const std::string digest = sha256_hex(bytes);
  if (digest != hash) throw InputError(file, 0, "its content has SHA-256 " + digest.substr(0, 16) + "…, not the " + hash.substr(0, 16) + "… it is named by (a damaged or altered copy)");
  return bytes;
}

// data/index.json "paths": logical resource name → object digest.
std::string object_for(const fs::path& checkout, const std::string& logical, const std::string& path) {
  const std::string file = (data_dir(checkout) / "index.json").string();
  const nlohmann::json index = parse_json_input(read_text_file(file), file, "the object index");
  if (index.value("format", std::string()) != "cwschemes-object-index-v1")
    throw InputError(file, 0, "format \"" + excerpt(index.value("format", std::string())) + "\", expected cwschemes-object-index-v1");
  const auto& paths = index.contains("paths") ? index["paths"] : nlohmann::json();
  if (!paths.is_object() || !paths.contains(logical) || !paths[logical].is_string())
    throw InputError(path, 0, "the source \"" + excerpt(logical) + "\" is not in " + file);
  return paths[logical].get<std::string>();
}

nlohmann::json read_entry(const std::string& path, const std::string& text) {
  nlohmann::json e = parse_json_input(text, path, "a cwschemes catalogue entry");
  if (!e.is_object() || e.value("format", std::string()) != kEntryFormat)
    throw InputError(path, 0, std::string("not a ") + kEntryFormat + " entry");
  if (text_field(e, "field", path) != "Q") throw InputError(path, 0, "field \"" + excerpt(e["field"].get<std::string>()) + "\", expected Q");
  return e;
}

}  // namespace

bool is_cwschemes_checkout(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(data_dir(dir) / "index.json", ec) && fs::is_directory(dir / "schemes", ec);
}

bool is_cwschemes_entry(const fs::path& path) {
  const fs::path folder = path.parent_path();
  return path.extension() == ".json" && folder.filename() == "schemes" && is_cwschemes_checkout(folder.parent_path());
}

std::vector<fs::path> cwschemes_entries(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir / "schemes"))
    if (e.is_regular_file() && e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

long cwschemes_entry_size(const std::string& path) {
  return decimal_field(read_entry(path, read_text_file(path)), "n", 1L << 40, path);
}

ImportedScheme read_cwschemes(const std::string& path, const std::string& text, const ImportOptions& opt) {
  const nlohmann::json entry = read_entry(path, text);
  const long n = decimal_field(entry, "n", 64, path);
  const long rank = decimal_field(entry, "rank", 1L << 40, path);
  const fs::path checkout = fs::absolute(fs::path(path)).parent_path().parent_path();  // CHECKOUT/schemes/<n>.json
  const std::string root_text = object_bytes(checkout, text_field(entry, "root_object", path), path);
  const nlohmann::json root = parse_json_input(root_text, path, "the root object");
  const std::string kind = root.is_object() ? root.value("format", std::string()) : std::string();
  if (kind != kExplicitFormat)
    throw InputError(path, 0, "the root object is a \"" + excerpt(kind) + "\" construction recipe, not explicit coefficients (" + kExplicitFormat + "); tdisc reads only those");
  if (decimal_field(root, "n", 64, path) != n || decimal_field(root, "rank", 1L << 40, path) != rank)
    throw InputError(path, 0, "the root object's n or rank differ from the entry's");
  const std::string source = text_field(root, "source", path);
  ImportedScheme im = read_qcsr_npz(path + ": " + source, object_bytes(checkout, object_for(checkout, source, path), path), opt);
  const Format& f = im.scheme.format;
  if (f.n != n || f.m != n || f.p != n || im.scheme.rank() != rank)
    throw InputError(path, 0, "the arrays hold " + f.str() + " rank " + std::to_string(im.scheme.rank()) + ", the entry says " +
                                  std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n) + " rank " + std::to_string(rank));
  const nlohmann::json& made = entry.contains("provenance") ? entry["provenance"] : entry;
  if (made.is_object() && made.contains("construction") && made["construction"].is_string()) {
    const std::string note = "construction: " + made["construction"].get<std::string>();
    if (std::find(im.notes.begin(), im.notes.end(), note) == im.notes.end()) im.notes.push_back(note);
  }
  return im;
}

}  // namespace tdisc::fmt
