#include "adjoints/loss.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace contactlab {

namespace {

const char* const kFields[9] = {"px", "py", "pz", "vx", "vy", "vz", "wx", "wy", "wz"};

// Splits at '+' signs that separate terms, not at the sign of an exponent (1e+3).
std::vector<std::string> split_terms(const std::string& spec) {
  std::vector<std::string> out;
  std::string cur;
  for (size_t i = 0; i < spec.size(); ++i) {
    const char c = spec[i];
    const bool exponent_sign = c == '+' && i > 0 && (spec[i - 1] == 'e' || spec[i - 1] == 'E') && i + 1 < spec.size() &&
                               std::isdigit(static_cast<unsigned char>(spec[i + 1])) && i >= 2 &&
                               (std::isdigit(static_cast<unsigned char>(spec[i - 2])) || spec[i - 2] == '.');
    if (c == '+' && !exponent_sign) {
      out.push_back(cur);
      cur.clear();
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

Real parse_number(const std::string& text, const std::string& term, const char* what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v))
    throw std::invalid_argument("loss term '" + term + "': bad " + what + " '" + text + "'");
  return v;
}

// BODY, or site.NAME (a body of that full name first).
void parse_point(const std::string& name, const Model& model, const std::string& term, LossTerm& t) {
  t.body = model.find_body(name);
  if (t.body >= 0) return;
  if (name.rfind("site.", 0) == 0) {
    t.site = model.find_site(name.substr(5));
    if (t.site < 0) throw std::invalid_argument("loss term '" + term + "': unknown site '" + name.substr(5) + "'");
    t.body = model.sites[t.site].body;
    t.point_B = model.sites[t.site].pos_B;
    return;
  }
  throw std::invalid_argument("loss term '" + term + "': unknown body '" + name + "'");
}

// d(point)/d(state) pieces: a = R (c - s) with c the COM and s the point in
// the body frame, so the point is x - a and moves by dx + a x dθ.
Vec3 com_offset_W(const Data& data, const Model& model, const LossTerm& t) {
  return data.q_WB[t.body] * (model.bodies[t.body].com_B - t.point_B);
}

}  // namespace

int state_field_index(const std::string& field) {
  for (int i = 0; i < 9; ++i)
    if (field == kFields[i]) return i;
  return -1;
}

Loss Loss::parse(const std::string& spec, const Model& model) {
  Loss loss;
  for (const std::string& raw : split_terms(spec)) {
    if (raw.empty()) throw std::invalid_argument("loss '" + spec + "': empty term");
    LossTerm t;
    t.text = raw;
    std::string body = raw;
    const auto star = raw.find('*');
    if (star != std::string::npos) {
      t.scale = parse_number(raw.substr(0, star), raw, "scale");
      body = raw.substr(star + 1);
    }
    if (body.rfind("final:", 0) == 0) {
      const std::string rest = body.substr(6);
      const auto dot = rest.rfind('.');
      if (dot == std::string::npos) throw std::invalid_argument("loss term '" + raw + "': expected final:BODY.FIELD");
      t.kind = LossTerm::Kind::Final;
      parse_point(rest.substr(0, dot), model, raw, t);
      t.field = state_field_index(rest.substr(dot + 1));
      if (t.field < 0)
        throw std::invalid_argument("loss term '" + raw + "': unknown field '" + rest.substr(dot + 1) +
                                    "' (expected px py pz vx vy vz wx wy wz)");
    } else if (body.rfind("sumsq:", 0) == 0) {
      const std::string rest = body.substr(6);
      // .pos= the point, .vel= its velocity, .angvel= its body's angular velocity.
      const char* const markers[3] = {".pos=", ".vel=", ".angvel="};
      size_t marker = std::string::npos, length = 0;
      for (int group = 0; group < 3 && marker == std::string::npos; ++group) {
        marker = rest.find(markers[group]);
        t.field = 3 * group;
        length = std::string(markers[group]).size();
      }
      if (marker == std::string::npos)
        throw std::invalid_argument("loss term '" + raw + "': expected sumsq:BODY.pos=X,Y,Z (or .vel=, .angvel=)");
      t.kind = LossTerm::Kind::SumSq;
      parse_point(rest.substr(0, marker), model, raw, t);
      std::string xyz = rest.substr(marker + length);
      for (int k = 0; k < 3; ++k) {
        const auto comma = xyz.find(',');
        if ((k < 2) != (comma != std::string::npos))
          throw std::invalid_argument("loss term '" + raw + "': expected three coordinates X,Y,Z");
        t.target[k] = parse_number(xyz.substr(0, comma), raw, "coordinate");
        xyz = comma == std::string::npos ? "" : xyz.substr(comma + 1);
      }
    } else {
      throw std::invalid_argument("loss term '" + raw + "': expected final:BODY.FIELD or sumsq:BODY.pos=X,Y,Z");
    }
    loss.terms_.push_back(t);
  }
  return loss;
}

Real Loss::value(const Model& model, const Data& data) const {
  Real total = 0;
  for (const LossTerm& t : terms_) {
    const SiteState point = body_point_state(model, data, t.body, t.point_B);
    const int group = t.field / 3, k = t.field % 3;
    const Vec3& of = group == 0 ? point.p : group == 1 ? point.v : point.w;
    if (t.kind == LossTerm::Kind::SumSq) {
      total += t.scale * (of - t.target).squaredNorm();
      continue;
    }
    total += t.scale * of[k];
  }
  return total;
}

void Loss::add_gradient(const Model& model, const Data& data, std::vector<BodyCotangent>& out) const {
  out.resize(model.num_bodies());
  for (const LossTerm& t : terms_) {
    if (t.body < 0) continue;  // a site on the world does not move
    BodyCotangent& g = out[t.body];
    const Vec3 a = com_offset_W(data, model, t);
    Vec3 p_bar = Vec3::Zero(), vo_bar = Vec3::Zero();
    const int group = t.field / 3, k = t.field % 3;
    if (t.kind == LossTerm::Kind::SumSq) {
      const Vec3& w = data.w_W[t.body];
      if (group == 0) p_bar = 2 * t.scale * (data.x_W[t.body] - a - t.target);
      else if (group == 1) vo_bar = 2 * t.scale * (data.v_W[t.body] - w.cross(a) - t.target);
      else g.w += 2 * t.scale * (w - t.target);
    } else {
      if (group == 0) p_bar[k] = t.scale;
      else if (group == 1) vo_bar[k] = t.scale;
      else g.w[k] += t.scale;
    }
    // point p = x - a, dp = dx + a x dθ
    g.x += p_bar;
    g.theta += p_bar.cross(a);
    // point velocity v_o = v - w x a, dv_o = dv + a x dw - ((w.a) I - a w^T) dθ
    const Vec3& w = data.w_W[t.body];
    g.v += vo_bar;
    g.w += vo_bar.cross(a);
    g.theta += -w.dot(a) * vo_bar + w * a.dot(vo_bar);
  }
}

}  // namespace contactlab
