#!/usr/bin/env python3
"""The plain-Adam baseline of issue 25, in PyTorch: Kaporin's Z3 x Z4 ansatz for 4x4:48 (3 shift-fixed
and 3 free seeds, each term under the 4 phases of diag(1, i, -1, -i)), complex128, Adam lr 0.01
(a tenth for the last quarter), init std 0.3, a fixed number of steps, all starts at once.
Prints one JSON line: starts, steps, seconds, numerical solutions (residual < 1e-8), best residual.
Usage: ansatz_probe.py [--starts 4096] [--steps 8000] [--seed 1] [--device cuda]"""
import argparse, json, time
import torch

def matmul_tensor(n, dtype, device):
    t = torch.zeros(n * n, n * n, n * n, dtype=dtype, device=device)
    for i in range(n):
        for j in range(n):
            for k in range(n):
                t[i * n + j, j * n + k, k * n + i] = 1  # trace form: a_ij b_jk c_ki
    return t

def terms(x, n):
    """x: (B, 12, n, n) seeds -> U, V, W of shape (B, 48, n*n)."""
    d = torch.tensor([1, 1j, -1, -1j][:n], dtype=x.dtype, device=x.device)
    ip = [0, 1, 2, 4, 5, 3, 7, 8, 6, 10, 11, 9]  # fixed 0,1,2; three 3-cycles
    us, vs, ws = [], [], []
    for s in range(4):
        z = torch.outer(d ** s, d ** (-s))  # z_s(i, j) = (d_i / d_j)^s: the sandwich D^s . D^-s
        for t in range(12):
            us.append(z * x[:, t])
            vs.append(z * x[:, ip[t]])
            ws.append(z * x[:, ip[ip[t]]])
    f = lambda l: torch.stack(l, 1).reshape(x.shape[0], 48, n * n)
    return f(us), f(vs), f(ws)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--starts", type=int, default=4096)
    ap.add_argument("--steps", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", default="cuda")
    a = ap.parse_args()
    n, dt = 4, torch.complex128
    torch.manual_seed(a.seed)
    T = matmul_tensor(n, dt, a.device)
    x = (0.3 * torch.randn(a.starts, 12, n, n, dtype=dt, device=a.device)).requires_grad_(True)
    opt = torch.optim.Adam([x], lr=0.01)
    if a.device == "cuda":
        torch.cuda.synchronize()
    t0 = time.time()
    for step in range(a.steps):
        if step == (3 * a.steps) // 4:
            for g in opt.param_groups:
                g["lr"] = 0.001
        U, V, W = terms(x, n)
        model = torch.einsum("bra,brc,brd->bacd", U, V, W)
        loss = ((model - T).abs() ** 2).sum(dim=(1, 2, 3))
        opt.zero_grad()
        loss.sum().backward()
        opt.step()
    with torch.no_grad():
        U, V, W = terms(x, n)
        res = ((torch.einsum("bra,brc,brd->bacd", U, V, W) - T).abs() ** 2).sum(dim=(1, 2, 3)).sqrt()
    if a.device == "cuda":
        torch.cuda.synchronize()
    secs = time.time() - t0
    found = int((res < 1e-8).sum())
    print(json.dumps({"probe": "plain Adam in z3xz4 (PyTorch, complex128)", "starts": a.starts, "steps": a.steps,
                      "seed": a.seed, "seconds": round(secs, 2), "numerical_48s": found,
                      "per_second": found / secs, "best_residual": float(res.min()),
                      "device": torch.cuda.get_device_name(0) if a.device == "cuda" else "cpu",
                      "torch": torch.__version__}))

if __name__ == "__main__":
    main()
