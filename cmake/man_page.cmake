# gridlock.1 from the built binary's own help (cmake -P, at build time: tool/cli/CMakeLists.txt),
# so the man page says exactly what `gridlock --help` and `gridlock COMMAND --help` say
# (tool/cli/help_text.cpp): NAME and DESCRIPTION from the top help, SYNOPSIS from every usage
# line, COMMANDS with each command's help, kept as printed (no-fill).
# Usage: cmake -DGRIDLOCK=BIN -DVERSION=X.Y.Z -DOUT=FILE -P man_page.cmake
foreach(var GRIDLOCK VERSION OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man_page.cmake: -D${var}=... is required")
  endif()
endforeach()

function(help_of out)
  execute_process(COMMAND ${GRIDLOCK} ${ARGN} --help OUTPUT_VARIABLE text
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "man_page.cmake: ${GRIDLOCK} ${ARGN} --help failed (${rc}): ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Text as roff shows it verbatim: backslashes escaped, hyphens as minus signs (so options copy
# as typed), and a line that starts with a control character ('.' or "'") made plain text.
function(roff out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REPLACE "\n." "\n\\&." text "${text}")
  string(REPLACE "\n'" "\n\\&'" text "${text}")
  if(text MATCHES "^[.']")
    set(text "\\&${text}")
  endif()
  if(NOT text MATCHES "\n$")
    string(APPEND text "\n")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The "Usage: ..." line of a help text, without the label.
function(usage_of out text)
  if(NOT text MATCHES "\nUsage: ([^\n]*)\n")
    message(FATAL_ERROR "man_page.cmake: no Usage line in:\n${text}")
  endif()
  set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

help_of(top)
# The first line: "gridlock: find and remove ..." is NAME's "gridlock - find and remove ...".
if(NOT top MATCHES "^gridlock: ([^\n]*)\n")
  message(FATAL_ERROR "man_page.cmake: the help does not start with 'gridlock: ...':\n${top}")
endif()
set(summary "${CMAKE_MATCH_1}")
# The commands: the lines of the "Commands:" section, up to the blank line that ends it.
string(FIND "${top}" "\nCommands:\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "man_page.cmake: no Commands section in:\n${top}")
endif()
string(SUBSTRING "${top}" ${at} -1 section)
string(FIND "${section}" "\n\n" end)
string(SUBSTRING "${section}" 0 ${end} section)
string(REGEX MATCHALL "\n  [a-z]+ " lines "${section}")
set(commands)
foreach(line IN LISTS lines)
  string(STRIP "${line}" name)
  list(APPEND commands "${name}")
endforeach()
if(NOT commands)
  message(FATAL_ERROR "man_page.cmake: no commands listed in:\n${top}")
endif()

usage_of(usage "${top}")
set(synopsis "${usage}\n")
set(sections "")
foreach(command IN LISTS commands)
  help_of(help ${command})
  usage_of(usage "${help}")
  string(APPEND synopsis "${usage}\n")
  roff(help "${help}")
  string(APPEND sections ".SS gridlock ${command}\n.nf\n${help}.fi\n")
endforeach()
# DESCRIPTION: the top help after its first line, but its "Environment:" section, which is
# ENVIRONMENT's (the variables, without the heading).
string(FIND "${top}" "\n" first)
math(EXPR first "${first} + 1")
string(SUBSTRING "${top}" ${first} -1 description)
string(FIND "${description}" "\nEnvironment:\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "man_page.cmake: no Environment section in:\n${top}")
endif()
math(EXPR from "${at} + 14")
string(SUBSTRING "${description}" ${from} -1 environment)
string(FIND "${environment}" "\n\n" end)
string(SUBSTRING "${environment}" 0 ${end} environment)
string(LENGTH "${environment}" length)
math(EXPR after "${from} + ${length} + 1")
string(SUBSTRING "${description}" 0 ${at} before)
string(SUBSTRING "${description}" ${after} -1 rest)
set(description "${before}${rest}")
roff(environment "${environment}")
roff(description "${description}")
roff(summary "${summary}")
roff(synopsis "${synopsis}")

file(WRITE "${OUT}.tmp"
  ".\\\" Generated from `gridlock --help` by cmake/man_page.cmake; edit tool/cli/help_text.cpp.\n"
  ".TH GRIDLOCK 1 \"\" \"gridlock ${VERSION}\" \"User Commands\"\n"
  ".SH NAME\ngridlock \\- ${summary}"
  ".SH SYNOPSIS\n.nf\n${synopsis}.fi\n"
  ".SH DESCRIPTION\n.nf\n${description}.fi\n"
  ".SH COMMANDS\n${sections}"
  ".SH ENVIRONMENT\n.nf\n${environment}.fi\n"
  ".SH SEE ALSO\nclang\\-tidy(1), bear(1)\n")
file(RENAME "${OUT}.tmp" "${OUT}")
