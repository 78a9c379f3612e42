// The reasons a user reads for the shapes the Python rewrite will not edit: autograd Functions
// whose backward, forward or class cannot take one more input of apply
// (fixtures/rewrite/py_autograd's refused.py). The golden cases check the edits and the
// reasons' names; this checks the details.
#include "rewrite/rewrite_case.h"

#include <gtest/gtest.h>

#include <string>

namespace gridlock::test {
namespace {

std::string notesOf(const std::string& fixture) {
  Case c(fixture);
  CommandResult r = c.run("rewrite", "--diff --python-checker=warn");
  EXPECT_EQ(r.status, 0) << r.err;
  return r.err;
}

TEST(PyAutogradShapes, EachFunctionLeftSaysWhy) {
  std::string notes = notesOf("py_autograd");
  const std::string left =
      "note: left pkg.parallel_state.get_tensor_model_parallel_group: "
      "open_call_graph (cannot thread tp_group: ";
  for (const std::string& line : {
           "pkg/refused.py:23:49: " + left +
               "backward (pkg/refused.py:27) returns `_maybe(grad, ctx.flat)` at line 28, a "
               "tuple on some paths and one gradient on others: where one more goes is not "
               "known)",
           "pkg/refused.py:37:49: " + left +
               "backward (pkg/refused.py:41) returns nothing at line 43)",
           "pkg/refused.py:53:49: " + left +
               "backward (pkg/refused.py:57) can end without a return (it gives None there): one "
               "more gradient cannot be added to it)",
           "pkg/refused.py:68:49: " + left +
               "forward (pkg/refused.py:66) takes scale=1.0: apply may leave it out, so where a "
               "new input last lands among apply's arguments is not known)",
           "pkg/refused.py:82:49: " + left +
               "Staged defines setup_context: its forward takes no ctx to keep the group on)",
       })
    EXPECT_NE(notes.find(line + "\n"), std::string::npos) << line << "\n" << notes;
  // The five, and nothing else left: every other Function is threaded.
  EXPECT_NE(notes.find("7 threaded (through 17 function(s)), 5 left (open_call_graph 5)"),
            std::string::npos)
      << notes;
}

}  // namespace
}  // namespace gridlock::test
