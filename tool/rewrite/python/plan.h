// What a Python rewrite plan (docs/rewrite.md, "Python") carries besides the core's verdicts,
// edits and tallies (rewrite/core/plan.h): the type hints it wrote and the reads its edits add,
// which its finishing and checks read. PyRewriter (rewriter.h) makes the plan: its triage, then
// its strategies (strategies.cpp), over the files parsed again, which the digests the scan
// recorded prove unchanged before anything is written.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace gridlock::rewrite::py {

// A group's type hint Thread wrote: the parameter (`tp_group`), the class the hint names
// (`ProcessGroup`), and the methods the pack's `spell` calls on a group (`size`, `rank`). An
// empty `param` stands for every receiver in the file: the plan imported `torch.distributed`
// there, which makes the file's existing `torch.distributed.ProcessGroup` hints known to pyright.
struct GroupHint {
  std::string param, cls;
  std::set<std::string> methods;
};

// What the Python finish and checks read of a plan besides its verdicts and edits.
struct PyExtras {
  std::set<std::string>
      hinted;  // files whose edits write a type hint (rewrite/python/thread_hints.h)
  std::map<std::string, std::vector<GroupHint>> groupHints;  // by file
  // Reads the edits write, by file and name: Collapse's lookups (a shim read each) and a
  // keyword's fallback on the global written out, which the re-scan of the rewritten files
  // finds beside the reads left.
  std::map<std::string, std::map<std::string, int>> added;
};

}  // namespace gridlock::rewrite::py
