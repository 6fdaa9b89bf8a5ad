// Forward and backward of S independent LSTM(6, H) + Linear(H, K) classifiers on one batch of symbol
// sequences, for the fused CPU trainer (rnnrepro/ribeiro/fused_lstm.py). Gate order (i, f, g, o) as in
// nn.LSTM. Per time step: one GEMM forward, one GEMM backward (ATen's), and a single pass over the gate
// arithmetic in each direction; the weight gradient of the recurrent matrix is one GEMM over all steps.
// Seeds run in parallel on threads of its own.
// Only the ATen headers of the operators used here and torch's pybind11 casters (not <torch/extension.h>,
// which brings the whole C++ frontend): the first compile takes about 12 s where it took about 30 s.
#include <ATen/core/Tensor.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/full.h>
#include <ATen/ops/logsumexp.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/sub.h>
#include <ATen/ops/sum.h>
#include <ATen/ops/zeros.h>
#include <torch/csrc/utils/pybind.h>
#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

namespace {

inline float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// One step forward of all n sequences, in place on the pre-activations a (n, G) (the recurrent product,
// to which the input rows x_r (G) of each sequence's symbol and the bias b (G) are added): a = (σ(i), σ(f),
// tanh(g), σ(o)), with tanh(g) = 2σ(2g) − 1 so that one vectorised pass over n·G covers every gate. From the
// previous cell states cp (n, H): the cell states cn, their tanh tc and the hidden states h (n, H).
inline void step_forward(float* __restrict__ a, const float* __restrict__ wi, const int64_t* __restrict__ sym,
                         const float* __restrict__ b, const float* __restrict__ scale,
                         const float* __restrict__ cp, float* __restrict__ cn, float* __restrict__ tc,
                         float* __restrict__ h, int64_t n, int64_t H) {
  const int64_t G = 4 * H;
  for (int64_t r = 0; r < n; ++r) {
    float* __restrict__ ar = a + r * G;
    const float* __restrict__ x = wi + sym[r] * G;
    for (int64_t j = 0; j < G; ++j) {
      const float s = sigmoid(scale[j] * (ar[j] + x[j] + b[j]));
      ar[j] = scale[j] * s - (scale[j] - 1.0f);            // σ, or 2σ(2x) − 1 = tanh x where scale = 2
    }
    for (int64_t j = 0; j < H; ++j) cn[r * H + j] = ar[H + j] * cp[r * H + j] + ar[j] * ar[2 * H + j];
  }
  for (int64_t k = 0; k < n * H; ++k) tc[k] = std::tanh(cn[k]);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t j = 0; j < H; ++j) h[r * H + j] = a[r * G + 3 * H + j] * tc[r * H + j];
}

// One sequence, one step backward: from the activations a (G), the previous cell state cp (H), tanh of
// the cell state tc (H), and the incoming gradients dh, dc (H), the pre-activation gradients dg (G);
// dc becomes the gradient w.r.t. the previous cell state.
inline void gates_backward(const float* __restrict__ a, const float* __restrict__ cp,
                           const float* __restrict__ tc, const float* __restrict__ dh, float* __restrict__ dc,
                           float* __restrict__ dg, int64_t H) {
  for (int64_t j = 0; j < H; ++j) {
    const float i = a[j], f = a[H + j], gg = a[2 * H + j], o = a[3 * H + j];
    const float dcj = dc[j] + dh[j] * o * (1.0f - tc[j] * tc[j]);
    dg[j] = dcj * gg * i * (1.0f - i);
    dg[H + j] = dcj * cp[j] * f * (1.0f - f);
    dg[2 * H + j] = dcj * i * (1.0f - gg * gg);
    dg[3 * H + j] = dh[j] * tc[j] * o * (1.0f - o);
    dc[j] = dcj * f;
  }
}

// dw (G) += dg (G) and db (G) += dg: the input-weight row of this step's symbol, and the bias.
inline void accumulate(float* __restrict__ dw, float* __restrict__ db, const float* __restrict__ dg, int64_t G) {
  for (int64_t j = 0; j < G; ++j) {
    dw[j] += dg[j];
    db[j] += dg[j];
  }
}

// One seed. Shapes: sym (T, n) int64; Wih (G, 6), Whh (G, H), bias (G) = b_ih + b_hh, Wo (K, H),
// bo (K), y (n) int64 with G = 4H. Workspace: A (T, n, G) gate activations, C (T+1, n, H) cell states
// (C[0] = 0), Hs (T+1, n, H) hidden states (Hs[0] = 0), TC (T, n, H) tanh of the cell states,
// dG (T, n, G) pre-activation gradients. Outputs: ce (n), logits (n, K), and the five gradients.
void one_seed(const at::Tensor& sym, const at::Tensor& Wih, const at::Tensor& Whh, const at::Tensor& bias,
              const at::Tensor& Wo, const at::Tensor& bo, const at::Tensor& y, double scale,
              at::Tensor A, at::Tensor C, at::Tensor Hs, at::Tensor TC, at::Tensor dG,
              at::Tensor ce, at::Tensor logits, at::Tensor dWih, at::Tensor dWhh, at::Tensor db,
              at::Tensor dWo, at::Tensor dbo) {
  const int64_t T = sym.size(0), n = sym.size(1), G = Whh.size(0), H = Whh.size(1), K = Wo.size(0);
  const at::Tensor WhhT = Whh.t().contiguous();          // (H, G)
  const at::Tensor WihT = Wih.t().contiguous();          // (6, G): row s is symbol s's input
  const int64_t* sp = sym.data_ptr<int64_t>();
  const float* wi = WihT.data_ptr<float>();
  const float* bp = bias.data_ptr<float>();
  std::vector<float> gate_scale(G, 1.0f);               // 2 on the cell-input gate g, 1 elsewhere
  std::fill(gate_scale.begin() + 2 * H, gate_scale.begin() + 3 * H, 2.0f);
  C[0].zero_();
  Hs[0].zero_();
  for (int64_t t = 0; t < T; ++t) {
    at::Tensor g = A[t];
    at::mm_out(g, Hs[t], WhhT);                          // beta = 0 (MKL needs no read of g)
    step_forward(g.data_ptr<float>(), wi, sp + t * n, bp, gate_scale.data(), C[t].data_ptr<float>(),
                 C[t + 1].data_ptr<float>(), TC[t].data_ptr<float>(), Hs[t + 1].data_ptr<float>(), n, H);
  }
  // Readout and summed cross entropy; dlogits = scale · (softmax − onehot(y)).
  at::addmm_out(logits, bo, Hs[T], Wo.t());
  const at::Tensor lse = at::logsumexp(logits, {1});
  const at::Tensor picked = logits.gather(1, y.unsqueeze(1)).squeeze(1);
  at::sub_out(ce, lse, picked);
  at::Tensor dlog = at::softmax(logits, 1);
  dlog.scatter_add_(1, y.unsqueeze(1), at::full({n, 1}, -1.0f, dlog.options()));
  dlog.mul_(scale);
  at::mm_out(dWo, dlog.t(), Hs[T]);
  at::sum_out(dbo, dlog, at::IntArrayRef{0});
  at::Tensor dh = at::mm(dlog, Wo);                      // (n, H)
  at::Tensor dc = at::zeros({n, H}, dh.options());
  float* dhp = dh.data_ptr<float>();
  float* dcp = dc.data_ptr<float>();
  dWih.zero_();
  db.zero_();
  float* dwi = dWih.data_ptr<float>();                   // (6, G), transposed at the end
  float* dbp = db.data_ptr<float>();
  for (int64_t t = T - 1; t >= 0; --t) {
    const float* a = A[t].data_ptr<float>();
    const float* cp = C[t].data_ptr<float>();
    const float* tc = TC[t].data_ptr<float>();
    float* dg = dG[t].data_ptr<float>();
    for (int64_t r = 0; r < n; ++r) {
      gates_backward(a + r * G, cp + r * H, tc + r * H, dhp + r * H, dcp + r * H, dg + r * G, H);
      accumulate(dwi + sp[t * n + r] * G, dbp, dg + r * G, G);
    }
    if (t > 0) at::mm_out(dh, dG[t], Whh);
  }
  at::mm_out(dWhh, dG.view({T * n, G}).t(), Hs.narrow(0, 0, T).reshape({T * n, H}));
}

}  // namespace

// Batched over seeds: every argument of one_seed with a leading seed dimension S (sym and y shared).
// dWih is returned as (S, 6, G) (transposed); the caller transposes it. The seeds are spread over
// ``workers`` threads of our own (seed s on thread s mod workers); the caller sets torch's (and so MKL's)
// thread count to 1 first, so that each matrix product runs on its calling thread.
void lstm_classifier_grads(at::Tensor sym, at::Tensor Wih, at::Tensor Whh, at::Tensor bias, at::Tensor Wo,
                           at::Tensor bo, at::Tensor y, double scale, at::Tensor A, at::Tensor C,
                           at::Tensor Hs, at::Tensor TC, at::Tensor dG, at::Tensor ce, at::Tensor logits,
                           at::Tensor dWihT, at::Tensor dWhh, at::Tensor db, at::Tensor dWo, at::Tensor dbo,
                           int64_t workers) {
  TORCH_CHECK(sym.dtype() == at::kLong && y.dtype() == at::kLong, "symbols and labels must be int64");
  TORCH_CHECK(Whh.dtype() == at::kFloat, "parameters must be float32");
  const int64_t S = Whh.size(0);
  auto work = [&](int64_t first) {
    for (int64_t s = first; s < S; s += workers) {
      one_seed(sym, Wih[s], Whh[s], bias[s], Wo[s], bo[s], y, scale, A[s], C[s], Hs[s], TC[s], dG[s],
               ce[s], logits[s], dWihT[s], dWhh[s], db[s], dWo[s], dbo[s]);
    }
  };
  workers = std::max<int64_t>(1, std::min(workers, S));
  std::vector<std::thread> pool;
  for (int64_t w = 1; w < workers; ++w) pool.emplace_back(work, w);
  work(0);
  for (auto& th : pool) th.join();
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("lstm_classifier_grads", &lstm_classifier_grads, "per-seed loss and gradients of S LSTM classifiers");
}
