// A symmetric ansatz (decomposition/ansatz.hpp) in floating point: the seed parameters θ, the linear
// expansion x_t = E_t·θ_o of every term, and the loss ‖Σ_t u_t⊗v_t⊗w_t − T‖² with its gradient in θ.
// The optimiser works in seed space, so every iterate is invariant under the ansatz's group.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "decomposition/ansatz.hpp"
#include "src/search/numeric/recipe_gradient.hpp"
#include "src/search/numeric/tensor.hpp"

namespace tdisc::search::numeric {

struct SeedSpace {
  Format format;
  std::string name, source;           // the ansatz's, for events and provenance
  int group_order = 1;
  int parameters = 0;                 // unknowns θ (complex or real, as the factors)
  bool real = true;                   // every E_t real: real factors can stay real
  std::vector<Mat<cdouble>> term_map; // per term t: (nm+mp+pn) × d_o, E_t = A_{g_t}·B_o
  std::vector<int> term_offset;       // per term: the offset of its orbit's θ_o in θ
  std::vector<int> orbit_sizes;       // terms per orbit
  std::shared_ptr<const Ansatz> exact;  // the exact ansatz, for exact expansions of rounded seeds

  int rank() const { return static_cast<int>(term_map.size()); }
};

// The float form of an exact ansatz (E_t computed exactly, then rounded once).
SeedSpace seed_space(const Ansatz& a);
// The ansatz named by a recipe: "z3", "z3xz4" (built-ins, `fixed` shift-fixed orbits per phase,
// −1: the default) or the path of a tdisc-ansatz file. Throws InputError when it does not fit.
std::shared_ptr<const SeedSpace> load_seed_space(const std::string& spec, Format f, int rank, int fixed);

// Factors of the expansion: column t of f[q] is factor q of term t.
template <class S>
Factors<S> expand(const SeedSpace& s, const Vec<S>& theta);

// ‖X − T‖² of the expansion and g = 2·∂L/∂θ̄ (the steepest-ascent direction for real and complex
// θ alike), by the Gram-matrix form ‖X‖² = Σ_{r,q} (u_rᴴu_q)(v_rᴴv_q)(w_rᴴw_q) and the chain rule
// g = Σ_t E_tᴴ·∇_{x_t}. `pull` > 0 adds pull·Σ|x − round_lattice(x)|² over the expanded entries.
// `recipe` adds the recipe terms of one Adam step (recipe_gradient.hpp) to the gradient; the loss
// returned stays the plain one.
template <class S>
double loss_and_gradient(const SeedSpace& s, const MatmulTensor& t, const Vec<S>& theta, Vec<S>& grad,
                         double pull = 0, double lattice_step = 0.5, const RecipeStep* recipe = nullptr);

}  // namespace tdisc::search::numeric
