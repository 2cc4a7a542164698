// A minimal pickle reader (protocols 2–5) for what numpy writes when it saves an object array of
// ndarrays: numpy.core.multiarray._reconstruct, numpy.ndarray, numpy.dtype, tuples, lists, bytes.
// Nothing else is constructed: any other global is refused, so a hostile pickle cannot run code.
#pragma once
#include <string>

#include "decomposition/formats/npy.hpp"

namespace tdisc::fmt {

// Runs the pickle and returns the array it builds (kind 'O' with `objects`, or numeric).
// Throws InputError(path, 0, where + ": …") on anything it does not understand.
NdArray unpickle_array(const std::string& pickle, const std::string& path, const std::string& where);

}  // namespace tdisc::fmt
