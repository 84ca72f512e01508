// The studies `contactlab study` knows, in the order --list prints them. A
// study is a function returning its definition, in its own file under studies/.
#include "studies/study.hpp"

namespace contactlab {

// One declaration and one table line per study.
StudyDefinition kamino_mechanisms_study();

const std::vector<StudyDefinition>& study_definitions() {
  static const std::vector<StudyDefinition> list = {
      kamino_mechanisms_study(),
  };
  return list;
}

}  // namespace contactlab
