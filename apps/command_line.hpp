// The parse every subcommand does alike: its options plus one positional
// argument (hidden from --help), an error or --help answered here.
#pragma once

#include <boost/program_options.hpp>

#include <iostream>
#include <string>
#include <vector>

namespace contactlab {

// Parses args into vm. `positional` names the hidden option that takes the
// bare arguments (at most max_positional of them, -1 for any number) and
// `value` where they go. Returns -1 to go on, else the exit code: 2 after
// printing "COMMAND: error: ..." and the options to stderr, 0 after printing
// the options for --help (opts must have "help").
inline int parse_command_line(const std::vector<std::string>& args, const std::string& command,
                              const boost::program_options::options_description& opts, const char* positional,
                              const boost::program_options::value_semantic* value, int max_positional,
                              boost::program_options::variables_map& vm) {
  namespace po = boost::program_options;
  po::options_description hidden;
  hidden.add_options()(positional, value);
  po::options_description all;
  all.add(opts).add(hidden);
  po::positional_options_description pos;
  pos.add(positional, max_positional);
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << command << ": error: " << e.what() << "\n" << opts;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << opts;
    return 0;
  }
  return -1;
}

}  // namespace contactlab
