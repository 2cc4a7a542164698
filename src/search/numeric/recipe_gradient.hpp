// The recipe terms (recipe_terms.hpp) in the CPU seed-space loss: hallucination in the forward pass,
// then target noise, discretisation and the large-value penalty added to ∂L/∂x̄ of the expanded
// factors, with the gradient of every hallucinated entry zeroed. cuda/seed_cuda.cu does the same per
// term column with the same functions.
#pragma once
#include <array>

#include "src/search/numeric/recipe_terms.hpp"
#include "src/search/numeric/tensor.hpp"

namespace tdisc::search::numeric {

// One Adam step's view of the recipe: its terms, the restart's seed and step k of K.
struct RecipeStep {
  const RecipeTerms* terms = nullptr;
  unsigned long long seed = 0;
  long step = 0, steps = 1;
};

// Replaces the hallucinated entries of x (rows t·len + e, e counted over the three blocks).
template <class S>
void hallucinate(const RecipeStep& r, Factors<S>& x);

// g[q] (∂L/∂x̄ per factor, dims[q] × R) += the terms' gradients at x; hallucinated entries get 0.
template <class S>
void add_recipe_gradient(const RecipeStep& r, const Factors<S>& x, std::array<Mat<S>, 3>& g);

}  // namespace tdisc::search::numeric
