// CUDA launchers for the batch PADMM iteration and the per-contact cone
// kernels. Thin on purpose: the math is solvers/padmm_kernels.hpp and
// contact_models/cone.hpp (CL_HD), shared with the CPU oracle.
#include "solvers/cuda/batch_padmm.hpp"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "contact_models/cone.hpp"
#include "solvers/batch_padmm_state.hpp"
#include "solvers/padmm_kernels.hpp"

namespace contactlab {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA ") + what + ": " + cudaGetErrorString(e));
}

// Device copy of a host vector; copy_back() writes it into the same vector.
template <typename T>
class DeviceArray {
 public:
  explicit DeviceArray(const std::vector<T>& host) : DeviceArray(host.data(), host.size()) {}
  DeviceArray(const T* host, size_t n) : n_(n) {
    if (n_ == 0) return;
    check(cudaMalloc(reinterpret_cast<void**>(&ptr_), n_ * sizeof(T)), "cudaMalloc");
    check(cudaMemcpy(ptr_, host, n_ * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy to device");
  }
  ~DeviceArray() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return ptr_; }
  void copy_back(T* host) const {
    if (n_) check(cudaMemcpy(host, ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
  }
  void copy_back(std::vector<T>& host) const { copy_back(host.data()); }

 private:
  T* ptr_ = nullptr;
  size_t n_ = 0;
};

// Device pointers of a BatchPadmmState (same layout as the host arrays).
struct DeviceBatch {
  int num_worlds, max_rows, max_contacts;
  const int *nb, *nl, *nc;
  const double *factor, *p, *vf, *mu;
  double *x, *y, *z, *y_hat, *z_hat, *x_prev, *y_prev, *z_prev;
  double *a, *c_prev, *r_primal, *r_dual, *r_compl;
  int *iteration, *flag;
};

// One thread per world; converged or failed worlds return at once.
__global__ void padmm_iterate_kernel(DeviceBatch b, padmm::Params<double> prm, int iterations) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= b.num_worlds || b.flag[w] != padmm::kRunning) return;
  const size_t o = static_cast<size_t>(w) * b.max_rows;
  padmm::World<double> v;
  v.nb = b.nb[w];
  v.nl = b.nl[w];
  v.nc = b.nc[w];
  v.m = v.nb + v.nl + 3 * v.nc;
  v.p = b.p + o;
  v.vf = b.vf + o;
  v.mu = b.mu + static_cast<size_t>(w) * b.max_contacts;
  v.x = b.x + o;
  v.y = b.y + o;
  v.z = b.z + o;
  v.y_hat = b.y_hat + o;
  v.z_hat = b.z_hat + o;
  v.x_prev = b.x_prev + o;
  v.y_prev = b.y_prev + o;
  v.z_prev = b.z_prev + o;
  padmm::Scalars<double> s;
  s.a = b.a[w];
  s.c_prev = b.c_prev[w];
  s.r_primal = b.r_primal[w];
  s.r_dual = b.r_dual[w];
  s.r_compl = b.r_compl[w];
  s.iteration = b.iteration[w];
  s.flag = b.flag[w];
  const double* L = b.factor + o * b.max_rows;
  for (int k = 0; k < iterations && s.flag == padmm::kRunning; ++k)
    padmm::iterate_dense_desaxce(v, prm, s, L, b.max_rows);
  b.a[w] = s.a;
  b.c_prev[w] = s.c_prev;
  b.r_primal[w] = s.r_primal;
  b.r_dual[w] = s.r_dual;
  b.r_compl[w] = s.r_compl;
  b.iteration[w] = s.iteration;
  b.flag[w] = s.flag;
}

__global__ void project_primal_kernel(const double* mu, int nc, double* x) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nc) cone::project_primal(mu[k], x + 3 * k);
}
__global__ void project_dual_kernel(const double* mu, int nc, double* x) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nc) cone::project_dual(mu[k], x + 3 * k);
}
__global__ void desaxce_shift_kernel(const double* mu, int nc, const double* v, double* s) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nc) cone::desaxce_shift(mu[k], v + 3 * k, s + 3 * k);
}

constexpr int kBlock = 128;
int blocks(int n) { return (n + kBlock - 1) / kBlock; }

void finish_launch(const char* what) {
  check(cudaGetLastError(), what);
  check(cudaDeviceSynchronize(), what);
}

}  // namespace

bool cuda_available() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device/driver" error
    return false;
  }
  return n > 0;
}

void cuda_padmm_iterate(BatchPadmmState& st, int iterations) {
  if (st.num_worlds == 0 || iterations <= 0) return;
  DeviceArray<int> nb(st.num_bilateral), nl(st.num_limit), nc(st.num_contacts), iteration(st.iteration),
      flag(st.flag);
  DeviceArray<double> factor(st.factor), p(st.p), vf(st.vf), mu(st.mu);
  DeviceArray<double> x(st.x), y(st.y), z(st.z), y_hat(st.y_hat), z_hat(st.z_hat), x_prev(st.x_prev),
      y_prev(st.y_prev), z_prev(st.z_prev);
  DeviceArray<double> a(st.a), c_prev(st.c_prev), r_primal(st.r_primal), r_dual(st.r_dual), r_compl(st.r_compl);
  const DeviceBatch b{st.num_worlds, st.max_rows, st.max_contacts, nb.get(), nl.get(), nc.get(),
                      factor.get(), p.get(), vf.get(), mu.get(), x.get(), y.get(), z.get(), y_hat.get(),
                      z_hat.get(), x_prev.get(), y_prev.get(), z_prev.get(), a.get(), c_prev.get(),
                      r_primal.get(), r_dual.get(), r_compl.get(), iteration.get(), flag.get()};
  padmm_iterate_kernel<<<blocks(st.num_worlds), kBlock>>>(b, st.params, iterations);
  finish_launch("padmm_iterate_kernel");
  x.copy_back(st.x);
  y.copy_back(st.y);
  z.copy_back(st.z);
  y_hat.copy_back(st.y_hat);
  z_hat.copy_back(st.z_hat);
  x_prev.copy_back(st.x_prev);
  y_prev.copy_back(st.y_prev);
  z_prev.copy_back(st.z_prev);
  a.copy_back(st.a);
  c_prev.copy_back(st.c_prev);
  r_primal.copy_back(st.r_primal);
  r_dual.copy_back(st.r_dual);
  r_compl.copy_back(st.r_compl);
  iteration.copy_back(st.iteration);
  flag.copy_back(st.flag);
}

void cuda_project_primal(const double* mu, int nc, double* x) {
  if (nc <= 0) return;
  DeviceArray<double> dmu(mu, nc), dx(x, 3 * static_cast<size_t>(nc));
  project_primal_kernel<<<blocks(nc), kBlock>>>(dmu.get(), nc, dx.get());
  finish_launch("project_primal_kernel");
  dx.copy_back(x);
}

void cuda_project_dual(const double* mu, int nc, double* x) {
  if (nc <= 0) return;
  DeviceArray<double> dmu(mu, nc), dx(x, 3 * static_cast<size_t>(nc));
  project_dual_kernel<<<blocks(nc), kBlock>>>(dmu.get(), nc, dx.get());
  finish_launch("project_dual_kernel");
  dx.copy_back(x);
}

void cuda_desaxce_shift(const double* mu, int nc, const double* v, double* s) {
  if (nc <= 0) return;
  DeviceArray<double> dmu(mu, nc), dv(v, 3 * static_cast<size_t>(nc)), ds(s, 3 * static_cast<size_t>(nc));
  desaxce_shift_kernel<<<blocks(nc), kBlock>>>(dmu.get(), nc, dv.get(), ds.get());
  finish_launch("desaxce_shift_kernel");
  ds.copy_back(s);
}

}  // namespace contactlab
