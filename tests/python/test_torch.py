"""tdisc.torch without a GPU: importable, CPU tensors go to torch.matmul and explain says why, a
missing or broken libtdisc_gemm is named."""
import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import support  # noqa: E402

support.require("tdisc", "torch")
import torch  # noqa: E402

import tdisc.torch as tt  # noqa: E402


class Fallback(support.TempDirCase):
    def test_cpu_tensors_go_to_torch_matmul_with_the_reason(self):
        a, b = torch.randn(5, 7, dtype=torch.float64), torch.randn(7, 3, dtype=torch.float64)
        self.assertTrue(torch.equal(tt.matmul(a, b), torch.matmul(a, b)))
        self.assertEqual(tt.explain(a, b), "torch.matmul: tensors on cpu and cpu; libtdisc_gemm runs on CUDA devices")

    def test_other_shapes_and_dtypes_say_why(self):
        a = torch.randn(2, 5, 7)
        self.assertIn("3 and 2 dimensions", tt.explain(a, torch.randn(7, 3)))
        self.assertTrue(torch.equal(tt.matmul(a, torch.ones(7, 3)), torch.matmul(a, torch.ones(7, 3))))
        self.assertIn("do not chain", tt.explain(torch.ones(2, 3), torch.ones(4, 5)))
        with self.assertRaises(RuntimeError):  # torch.matmul's own error
            tt.matmul(torch.ones(2, 3), torch.ones(4, 5))

    def test_a_library_that_cannot_be_loaded_is_named(self):
        os.environ["TDISC_GEMM_LIBRARY"] = self.path("libtdisc_gemm.so")
        try:
            module = importlib.reload(tt)
            self.assertIsNone(module.library())
            self.assertIn("cannot be loaded", module._library_error)
            self.assertIn(self.path("libtdisc_gemm.so"), module._library_error)
        finally:
            del os.environ["TDISC_GEMM_LIBRARY"]
            importlib.reload(tt)


if __name__ == "__main__":
    support.main()
