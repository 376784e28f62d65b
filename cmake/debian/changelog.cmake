# Writes the packages' Debian changelog (changelog.Debian, gzipped by the
# caller) from CHANGELOG.md: one entry for this version, whose items are
# the bold titles of the version's section.
#   cmake -DCHANGELOG=CHANGELOG.md -DOUTPUT=changelog.Debian -DVERSION=0.2.0
#         -DREVISION=1 -DMAINTAINER="..." -DDATE="Wed, 25 Nov 2026 21:28:57 +0000"
#         -P cmake/debian/changelog.cmake
foreach(var CHANGELOG OUTPUT VERSION REVISION MAINTAINER DATE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "changelog.cmake: -D${var}=... is missing")
  endif()
endforeach()

# The section "## VERSION ..." up to the next "## ".
file(STRINGS ${CHANGELOG} lines)
set(in_section OFF)
set(heading "")
set(titles "")
foreach(line IN LISTS lines)
  if(line MATCHES "^## ")
    if(in_section)
      break()
    endif()
    if(line MATCHES "^## ${VERSION}( |$)")
      set(in_section ON)
      string(REGEX REPLACE "^## ${VERSION} *" "" heading "${line}")
    endif()
  elseif(in_section AND line MATCHES "^- \\*\\*([^*]+)\\*\\*")
    string(REPLACE "`" "" title "${CMAKE_MATCH_1}")
    list(APPEND titles "${title}")
  endif()
endforeach()
if(NOT in_section)
  message(FATAL_ERROR "changelog.cmake: ${CHANGELOG} has no section '## ${VERSION}'")
endif()

# gsort_wrap(OUT TEXT FIRST REST): TEXT in lines of at most 78 columns, the
# first starting with FIRST, the others with REST.
function(gsort_wrap out text first rest)
  string(REPLACE " " ";" words "${text}")
  set(result "")
  set(line "${first}")
  set(fresh ON)
  foreach(word IN LISTS words)
    string(LENGTH "${line} ${word}" width)
    if(NOT fresh AND width GREATER 78)
      string(APPEND result "${line}\n")
      set(line "${rest}${word}")
    elseif(fresh)
      set(line "${line}${word}")
    else()
      set(line "${line} ${word}")
    endif()
    set(fresh OFF)
  endforeach()
  set(${out} "${result}${line}\n" PARENT_SCOPE)
endfunction()

gsort_wrap(intro "gsort ${VERSION} ${heading}, packaged with cpack. What it adds, in detail in /usr/share/doc/gsort/changelog.gz (CHANGELOG.md):"
           "  * " "    ")
set(text "gsort (${VERSION}-${REVISION}) unstable; urgency=medium\n\n${intro}")
foreach(title IN LISTS titles)
  gsort_wrap(item "${title}" "    - " "      ")
  string(APPEND text "${item}")
endforeach()
string(APPEND text "\n -- ${MAINTAINER}  ${DATE}\n")
file(WRITE ${OUTPUT} "${text}")
