#!/usr/bin/env bash
# Distance down a 20-degree incline after 1 s (incline_box, incline_sphere) and its
# relative error against a T^2/2: a = g (sin phi - MU cos phi) sliding (MU, default 0.2,
# must match the --set friction), a = (5/7) g sin phi rolling (docs/moreau.md).
# usage: scripts/incline_error.sh BIN SCENE SCHEME DT [extra args]
bin=$1; scene=$2; scheme=$3; dt=$4; shift 4
"$bin" run "$scene" --scheme "$scheme" --dt "$dt" --duration 1 --out ${TMPDIR:-/tmp}/incline_error.$$.csv "$@" >/dev/null
awk -F, -v scene="$scene" -v mu="${MU:-0.2}" 'NR==2{x0=$4; z0=$6} END{
  phi=20*atan2(1,1)/45; g=9.81;
  a = (scene=="incline_sphere") ? 5/7*g*sin(phi) : g*(sin(phi)-mu*cos(phi));
  d=($4-x0)*cos(phi)-($6-z0)*sin(phi); ref=a/2;
  printf "%s %s dt=%s distance %.9f reference %.9f rel.error %.3e\n", scene, "'"$scheme"'", "'"$dt"'", d, ref, (d-ref)/ref }' ${TMPDIR:-/tmp}/incline_error.$$.csv
rm -f ${TMPDIR:-/tmp}/incline_error.$$.csv
