// The studies `contactlab study` knows, in the order --list prints them. A
// study is a function returning its definition, in its own file under studies/.
#include "studies/study.hpp"

namespace contactlab {

// One declaration and one table line per study.
StudyDefinition ostrich_box_study();        // studies/ostrich_box.cpp
StudyDefinition kim_sensitivity_study();    // studies/kim_sensitivity.cpp
StudyDefinition kim_cito_study();           // studies/kim_cito.cpp
StudyDefinition kamino_mechanisms_study();  // studies/kamino_mechanisms.cpp

const std::vector<StudyDefinition>& study_definitions() {
  static const std::vector<StudyDefinition> list = {
      ostrich_box_study(),
      kim_sensitivity_study(),
      kim_cito_study(),
      kamino_mechanisms_study(),
  };
  return list;
}

}  // namespace contactlab
