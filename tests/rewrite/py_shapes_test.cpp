// The reasons a user reads for the shapes the Python rewrite will not edit: autograd Functions
// whose backward, forward or class cannot take one more input of apply
// (fixtures/rewrite/py_autograd's refused.py), and a fallback that gives its parameter a value
// built from the read, which a call cannot be given (fixtures/rewrite/py_supply_derived). The
// golden cases check the edits and the reasons' names; this checks the details.
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

TEST(PySupplyDerived, ACallIsNotGivenWhatTheFallbackBuildsByACall) {
  std::string notes = notesOf("py_supply_derived");
  const std::string line =
      "pkg/model.py:7:12: note: left pkg.helpers.exchange: open_fallback (this call leaves out "
      "the pp group, so pkg.helpers.exchange reads "
      "pkg.parallel_state.get_pipeline_model_parallel_group; cannot pass it here: the fallback "
      "at pkg/helpers.py:12:48 gives p2p_comm "
      "`Communicator(parallel_state.get_pipeline_model_parallel_group())`, not the value it "
      "reads: what the call would pass for it is not known (pass it by hand))";
  EXPECT_NE(notes.find(line + "\n"), std::string::npos) << line << "\n" << notes;
  // An expression of the read and another parameter: `n` means nothing at the call.
  const std::string repeated =
      "pkg/model.py:31:12: note: left pkg.helpers.repeated: open_fallback (this call leaves out "
      "the dp group, so pkg.helpers.repeated reads pkg.parallel_state.get_data_parallel_group; "
      "cannot pass it here: the fallback at pkg/helpers.py:50:37 gives dp_groups "
      "`(parallel_state.get_data_parallel_group(),) * n`, not the value it reads: what the call "
      "would pass for it is not known (pass it by hand))";
  EXPECT_NE(notes.find(repeated + "\n"), std::string::npos) << repeated << "\n" << notes;
  // Require leaves the fallbacks whose parameter is given something else than the read, saying
  // what, though their calls are given it (a tuple of the group).
  const std::string gathered =
      "pkg/helpers.py:19:37: note: left pkg.parallel_state.get_data_parallel_group: no_spelling "
      "(the fallback gives dp_groups `(parallel_state.get_data_parallel_group(),)`, not the value "
      "it reads: make it an error by hand)";
  EXPECT_NE(notes.find(gathered + "\n"), std::string::npos) << gathered << "\n" << notes;
  EXPECT_NE(notes.find("1 required, 0 threaded (through 0 function(s)), 4 call site(s) given the "
                       "group they hold, 7 left (no_spelling 3, open_fallback 4)"),
            std::string::npos)
      << notes;
}

}  // namespace
}  // namespace gridlock::test
