// Ring and provenance bookkeeping shared by the constructions.
#include "decomposition/constructions_detail.hpp"

#include <set>

#include "base/error.hpp"
#include "generated/tdisc_version.hpp"

namespace tdisc::detail {

Ring derived_ring(const std::vector<const Scheme*>& parents, const Scheme& out) {
  std::optional<Ring> modular;
  for (const Scheme* s : parents) {
    if (!ring_is_modular(s->ring)) continue;
    TDISC_REQUIRE(!modular || *modular == s->ring, "parents are valid modulo different primes");
    modular = s->ring;
  }
  if (modular) {
    TDISC_REQUIRE(ring_holds(*modular, out), "a derived coefficient does not exist in " +
                                                 std::string(ring_name(*modular)));
    return *modular;
  }
  return coefficient_ring(out);
}

namespace {

std::string joined(const std::set<std::string>& parts, const std::string& sep) {
  std::string t;
  for (const auto& p : parts) t += (t.empty() ? "" : sep) + p;
  return t;
}

}  // namespace

Provenance derived_provenance(const std::string& method, const std::vector<const Scheme*>& parents,
                              const std::string& detail) {
  Provenance p;
  p.tool = TDISC_TOOL;
  p.method = method;
  p.created = utc_now();
  std::set<std::string> hashes, sources, licences;
  std::string parent_text, source_text;
  for (const Scheme* s : parents) {
    std::string h = "sha256:" + scheme_sha256(*s);
    parent_text += (parent_text.empty() ? "" : " ") + h;
    std::string src = s->provenance.source.empty() ? s->format.str() + ":" + std::to_string(s->rank())
                                                   : s->provenance.source;
    source_text += (source_text.empty() ? "" : "; ") + src;
    if (auto it = s->provenance.extra.find("licence"); it != s->provenance.extra.end())
      licences.insert(it->second);
  }
  p.parent = parent_text;
  p.source = method + (detail.empty() ? "" : " " + detail) + " of [" + source_text + "]";
  if (!licences.empty()) p.extra["licence"] = joined(licences, " + ");
  return p;
}

Scheme finish_derived(Scheme out, const std::string& method, const std::vector<const Scheme*>& parents,
                      const std::string& detail) {
  out.check_shape();
  out.ring = derived_ring(parents, out);
  out.provenance = derived_provenance(method, parents, detail);
  return out;
}

}  // namespace tdisc::detail
