// GNU's argmatch, as sort reads the words of --sort=WORD and --check=WORD:
// a word of the option's list, or a prefix of one (or of several words
// that mean the same); anything else is refused as sort refuses it, with
// the list of valid words, and exit status 1 (argmatch's usage error,
// not sort's 2).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "src/core/errors.h"

namespace gsort {

// A word that argmatch refuses. Its message spans lines: the reason, the
// valid words, and where to look for help; main exits 1 on it.
class InvalidArgumentWord : public UsageError {
 public:
  using UsageError::UsageError;
};

// A word and what it means; words that mean the same share a value.
using ArgumentWords = std::vector<std::pair<const char*, int>>;

// The value `given` names among `words` for `option` ("--sort"). Throws
// InvalidArgumentWord for no match, or a prefix of words that differ.
int argmatch(const std::string& option, const std::string& given, const ArgumentWords& words);

}  // namespace gsort
