// Study kim_sensitivity: Kim et al.'s single-contact sensitivities (Fig. 3),
// the normal offset delta (Fig. 4) and the Newton statistics of the relaxed
// point (Fig. 11), on one contact of a unit point mass (A = I,
// studies/kim_point_contact.hpp). docs/studies.md states the settings.
//   sweep         mu 0.8, b = (b_N, 0.5, 0), b_N in [-3, 3] on 601 points:
//                 d/db_N of lambda_n, lambda_t1, sigma_n, sigma_t1 per arm
//   delta_offset  b_T = 0, delta in {0, 0.25, 0.5, 1}: the relaxed point
//                 and d sigma_N/d b_N against the closed form of
//                 lambda_N sigma_N = rho, sigma_N = lambda_N + b_N + delta
//   newton        the sweep's points and `trials` random problems
//                 (b uniform in [-3, 3]^3, mu uniform in [0.2, 1]): Newton
//                 iterations, rejected roots, continuation, fallbacks
#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "io/number_text.hpp"
#include "studies/kim_arms.hpp"
#include "studies/kim_point_contact.hpp"
#include "studies/kim_sensitivity_plot.hpp"
#include "studies/study.hpp"

namespace contactlab {

namespace {

constexpr Real kMu = 0.8;          // Fig. 2's mu (Fig. 3's is unstated)
constexpr Real kTangential = 0.5;  // b_T (unstated; STUDIES.md's suggestion)
constexpr Real kRho = 0.3;         // Fig. 3's rho
constexpr Real kSmoothingStd = 0.6;
constexpr int kSmoothingSamples = 128;
constexpr int kPoints = 601;
const Real kDeltas[] = {0, 0.25, 0.5, 1.0};

Real grid_b_n(int i) { return -3 + 6.0 * i / (kPoints - 1); }

const char* kSmoothFirst = "smoothing_first_order";
const char* kSmoothZeroth = "smoothing_zeroth_order";

bool is_smoothing(const std::string& arm) { return arm == kSmoothFirst || arm == kSmoothZeroth; }

using Row4 = std::array<Real, 4>;  // dlambda_n, dlambda_t1, dsigma_n, dsigma_t1

Row4 derivatives(const PointContactSample& s) { return {s.dlambda_n, s.dlambda_t, s.dsigma_n, s.dsigma_t}; }

// Randomized smoothing of the exact map with b_N perturbed by N(0, std^2):
// first order, the mean exact derivative at the perturbed points; zeroth
// order, the mean of (X(b + w) - X(b)) w / std^2 (X = lambda, sigma; the
// baseline X(b) lowers the variance and keeps the estimator unbiased).
Row4 smoothed(PointContact& contact, Real b_n, bool first_order, std::mt19937_64& rng) {
  std::normal_distribution<Real> w_dist(0, kSmoothingStd);
  const SensitivityOptions exact;
  const Vec3 b(b_n, kTangential, 0);
  const Vec3 l0 = contact.solve(b);
  const Vec3 s0 = l0 + b;
  Row4 sum{0, 0, 0, 0};
  for (int j = 0; j < kSmoothingSamples; ++j) {
    const Real w = w_dist(rng);
    const Vec3 bw(b_n + w, kTangential, 0);
    if (first_order) {
      const Row4 d = derivatives(contact.sample(bw, exact));
      for (int c = 0; c < 4; ++c) sum[c] += d[c];
    } else {
      const Vec3 l = contact.solve(bw);
      const Vec3 s = l + bw;
      const Real k = w / (kSmoothingStd * kSmoothingStd);
      sum[0] += (l[0] - l0[0]) * k;
      sum[1] += (l[1] - l0[1]) * k;
      sum[2] += (s[0] - s0[0]) * k;
      sum[3] += (s[1] - s0[1]) * k;
    }
  }
  for (Real& v : sum) v /= kSmoothingSamples;
  return sum;
}

// The exact derivatives of the hard solution in each mode (A = I, b_t > 0).
Row4 exact_closed_form(Real b_n) {
  switch (point_contact_mode(b_n, kTangential, kMu)) {
    case ContactMode::Sticking: return {-1, 0, 0, 0};
    case ContactMode::Sliding: return {-1, kMu, 0, kMu};
    case ContactMode::Separating: return {0, 0, 1, 0};
  }
  return {0, 0, 0, 0};
}

// Distance of b_n from the mode boundaries -b_T/mu and 0.
Real boundary_distance(Real b_n) { return std::min(std::abs(b_n + kTangential / kMu), std::abs(b_n)); }

void run_sweep(StudyContext& ctx, PointContact& contact, long& done, long total) {
  std::ofstream csv(ctx.path("sweep.csv"));
  csv << "b_n,arm,rho,dlambda_n,dlambda_t,dsigma_n,dsigma_t,fell_back\n";
  StudySummary& sum = ctx.summary();
  for (const std::string& arm : ctx.arms()) {
    const bool smooth = is_smoothing(arm);
    const KimArm ka = smooth ? KimArm{arm, SensitivityKind::Exact, 0} : parse_kim_arm(arm, kRho);
    const SensitivityOptions options = kim_sensitivity_options(ka);
    std::vector<Row4> rows(kPoints);
    int fallbacks = 0;
    bool fell_back = false;
    for (int i = 0; i < kPoints; ++i) {
      const Real b_n = grid_b_n(i);
      if (smooth) {
        std::mt19937_64 rng = ctx.rng(static_cast<std::uint64_t>(i), arm == kSmoothFirst ? 1 : 2);
        rows[i] = smoothed(contact, b_n, arm == kSmoothFirst, rng);
      } else {
        const PointContactSample s = contact.sample(Vec3(b_n, kTangential, 0), options);
        rows[i] = derivatives(s);
        fell_back = s.report.fell_back_to_exact;
        fallbacks += fell_back ? 1 : 0;
      }
      csv << shortest_text(b_n) << "," << arm << "," << shortest_text(ka.rho);
      for (Real v : rows[i]) csv << "," << shortest_text(v);
      csv << "," << (fell_back ? 1 : 0) << "\n";
    }
    // Continuity: the largest change of any component between adjacent b_N.
    Real jump = 0, sep_max = 0, sep_min = 1e300, exact_err = 0;
    for (int i = 0; i < kPoints; ++i) {
      const Real b_n = grid_b_n(i);
      if (i > 0)
        for (int c = 0; c < 4; ++c) jump = std::max(jump, std::abs(rows[i][c] - rows[i - 1][c]));
      if (b_n > 0.01) {
        sep_max = std::max(sep_max, std::abs(rows[i][0]));
        sep_min = std::min(sep_min, std::abs(rows[i][0]));
      }
      if (boundary_distance(b_n) > 0.01) {
        const Row4 ref = exact_closed_form(b_n);
        for (int c = 0; c < 4; ++c) exact_err = std::max(exact_err, std::abs(rows[i][c] - ref[c]));
      }
    }
    sum.add("sweep", arm, "rho", ka.rho);
    sum.add("sweep", arm, "max_jump", jump);
    sum.add("sweep", arm, "separation_max_abs_dlambda_n", sep_max);
    sum.add("sweep", arm, "separation_min_abs_dlambda_n", sep_min);
    sum.add("sweep", arm, "max_deviation_from_exact_closed_form", exact_err);
    if (!smooth) sum.add("sweep", arm, "fallbacks", fallbacks);
    ctx.progress(++done, total, "sweep " + arm);
  }
}

// lambda_N sigma_N = rho with sigma_N = lambda_N + x, x = b_N + delta.
Real closed_form_lambda(Real x, Real rho) { return (-x + std::sqrt(x * x + 4 * rho)) / 2; }
Real closed_form_dsigma(Real x, Real rho) { return 0.5 + x / (2 * std::sqrt(x * x + 4 * rho)); }

std::string delta_tag(Real delta) { return "_delta" + shortest_text(delta); }

void run_delta(StudyContext& ctx, PointContact& contact, long& done, long total) {
  std::ofstream csv(ctx.path("delta.csv"));
  csv << "arm,rho,delta,b_n,lambda_n,sigma_n,dsigma_n,lambda_n_closed_form,dsigma_n_closed_form\n";
  StudySummary& sum = ctx.summary();
  for (const std::string& arm : ctx.arms()) {
    ctx.progress(++done, total, "delta " + arm);
    if (is_smoothing(arm)) continue;
    const KimArm ka = parse_kim_arm(arm, kRho);
    if (ka.kind == SensitivityKind::Exact) continue;  // delta acts on the relaxed point only
    Real max_err = 0;
    int fallbacks = 0;
    for (Real delta : kDeltas) {
      SensitivityOptions options = kim_sensitivity_options(ka);
      options.delta = delta;
      Real prev_b = 0, prev_d = 0, transition = std::nan("");
      for (int i = 0; i < kPoints; ++i) {
        const Real b_n = grid_b_n(i);
        const PointContactSample s = contact.sample(Vec3(b_n, 0, 0), options);
        const Real lc = closed_form_lambda(b_n + delta, ka.rho), dc = closed_form_dsigma(b_n + delta, ka.rho);
        if (s.report.fell_back_to_exact)
          ++fallbacks;  // no relaxed point: reported, not compared
        else
          max_err = std::max({max_err, std::abs(s.lambda_n - lc), std::abs(s.dsigma_n - dc)});
        // Where d sigma_N/d b_N crosses 1/2 (linear interpolation).
        if (i > 0 && std::isnan(transition) && prev_d < 0.5 && s.dsigma_n >= 0.5)
          transition = prev_b + (0.5 - prev_d) * (b_n - prev_b) / (s.dsigma_n - prev_d);
        prev_b = b_n;
        prev_d = s.dsigma_n;
        if (std::abs(b_n) < 1e-12) {
          sum.add("delta_offset", arm, "lambda_n_at_b0" + delta_tag(delta), s.lambda_n);
          sum.add("delta_offset", arm, "sigma_n_at_b0" + delta_tag(delta), s.sigma_n);
        }
        csv << arm << "," << shortest_text(ka.rho) << "," << shortest_text(delta) << "," << shortest_text(b_n)
            << "," << shortest_text(s.lambda_n) << "," << shortest_text(s.sigma_n) << ","
            << shortest_text(s.dsigma_n) << "," << shortest_text(lc) << "," << shortest_text(dc) << "\n";
      }
      sum.add("delta_offset", arm, "transition_b_n" + delta_tag(delta), transition);
    }
    sum.add("delta_offset", arm, "max_error_vs_closed_form", max_err);
    sum.add("delta_offset", arm, "fallbacks", fallbacks);
  }
}

void run_newton(StudyContext& ctx, PointContact& contact, long& done, long total) {
  std::ofstream csv(ctx.path("newton_iterations.csv"));
  csv << "arm,iterations,count,cumulative_fraction\n";
  StudySummary& sum = ctx.summary();
  for (const std::string& arm : ctx.arms()) {
    ctx.progress(++done, total, "newton " + arm);
    if (is_smoothing(arm)) continue;
    const KimArm ka = parse_kim_arm(arm, kRho);
    if (ka.kind == SensitivityKind::Exact) continue;  // no Newton
    const SensitivityOptions options = kim_sensitivity_options(ka);
    std::map<int, long> histogram;
    long n = 0, ok = 0, rejected = 0, continued = 0, fallbacks = 0, first_try = 0;
    double iterations = 0;
    int max_it = 0;
    auto record = [&](const PointContactSample& s) {
      const SensitivityReport& r = s.report;
      ++n;
      ++histogram[r.newton_iterations];
      iterations += r.newton_iterations;
      max_it = std::max(max_it, r.newton_iterations);
      ok += r.fell_back_to_exact ? 0 : 1;
      fallbacks += r.fell_back_to_exact ? 1 : 0;
      continued += r.continuation_used ? 1 : 0;
      first_try += (!r.fell_back_to_exact && !r.continuation_used) ? 1 : 0;
      // A root that met the tolerance but lay outside the cones (root selection).
      rejected += r.continuation_reason.rfind("cone check failed", 0) == 0 ? 1 : 0;
    };
    contact.set_mu(kMu);
    for (int i = 0; i < kPoints; ++i) record(contact.sample(Vec3(grid_b_n(i), kTangential, 0), options));
    for (int t = 0; t < ctx.trials(); ++t) {
      std::mt19937_64 rng = ctx.rng(static_cast<std::uint64_t>(t), 3);
      std::uniform_real_distribution<Real> b_dist(-3, 3), mu_dist(0.2, 1.0);
      const Vec3 b(b_dist(rng), b_dist(rng), b_dist(rng));
      contact.set_mu(mu_dist(rng));
      record(contact.sample(b, options));
    }
    contact.set_mu(kMu);
    long cumulative = 0;
    for (const auto& [it, count] : histogram) {
      cumulative += count;
      csv << arm << "," << it << "," << count << "," << shortest_text(double(cumulative) / n) << "\n";
    }
    sum.add("newton", arm, "evaluations", n);
    sum.add("newton", arm, "success_rate", double(ok) / n);
    sum.add("newton", arm, "first_attempt_rate", double(first_try) / n);
    sum.add("newton", arm, "rejected_root_rate", double(rejected) / n);
    sum.add("newton", arm, "continuation_rate", double(continued) / n);
    sum.add("newton", arm, "fallback_rate", double(fallbacks) / n);
    sum.add("newton", arm, "mean_iterations", iterations / n);
    sum.add("newton", arm, "max_iterations", max_it);
  }
}

}  // namespace

StudyDefinition kim_sensitivity_study() {
  StudyDefinition s;
  s.name = "kim_sensitivity";
  s.summary = "Kim et al. Figs. 3, 4, 11: single-contact sensitivities across modes, the delta offset, Newton statistics";
  s.tasks = {"sweep", "delta_offset", "newton"};
  s.arms = {"exact", "signorini", "central_path", kSmoothFirst, kSmoothZeroth};
  s.accepts_extra_arm = check_kim_rho_arm;
  s.default_trials = 1000;  // random problems of the newton task
  s.full_trials = 10000;
  s.run = [](StudyContext& ctx) {
    PointContact contact(kMu);
    const long total = 3 * static_cast<long>(ctx.arms().size());
    long done = 0;
    run_sweep(ctx, contact, done, total);
    run_delta(ctx, contact, done, total);
    run_newton(ctx, contact, done, total);
    // The relaxed arms (those with a Newton): the delta and newton plots' curves.
    std::vector<std::string> relaxed;
    for (const std::string& a : ctx.arms())
      if (!is_smoothing(a) && a != "exact") relaxed.push_back(a);
    write_kim_sensitivity_plots(ctx, relaxed, kRho);
  };
  return s;
}

}  // namespace contactlab
