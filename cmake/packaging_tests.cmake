# Tests of what gets installed (ctest -L packaging): the man pages render
# without groff warnings, they and every completion know every option of --help, bash completes options, key types
# and choices, fish too, `cmake --install` puts each file in its place (and
# refuses the test build without GSORT_INSTALL_TEST_BUILD=1), the man pages
# cannot be left out silently, and gsort loads no MPI.
set(gsort_pkg_tests ${PROJECT_SOURCE_DIR}/tests/packaging)
set(gsort_completions ${PROJECT_SOURCE_DIR}/completions)

set(gsort_documented_in ${gsort_completions}/gsort.bash ${gsort_completions}/_gsort
    ${gsort_completions}/gsort.fish)
if(GSORT_MAN_PAGES_BUILT)
  list(APPEND gsort_documented_in ${PROJECT_BINARY_DIR}/man/gsort.1)
  add_test(NAME packaging.gsort_gen_man_page_lists_every_option
           COMMAND ${gsort_pkg_tests}/check_options_documented.sh $<TARGET_FILE:gsort-gen>
                   ${PROJECT_BINARY_DIR}/man/gsort-gen.1)
  set_tests_properties(packaging.gsort_gen_man_page_lists_every_option PROPERTIES LABELS packaging)
  add_test(NAME packaging.man_pages_render
           COMMAND ${gsort_pkg_tests}/check_man_pages_render.sh ${PROJECT_BINARY_DIR}/man/gsort.1
                   ${PROJECT_BINARY_DIR}/man/gsort-gen.1)
  set_tests_properties(packaging.man_pages_render PROPERTIES LABELS packaging SKIP_RETURN_CODE 77)
endif()
add_test(NAME packaging.gsort_options_documented
         COMMAND ${gsort_pkg_tests}/check_options_documented.sh $<TARGET_FILE:gsort> ${gsort_documented_in})

add_test(NAME packaging.bash_completion
         COMMAND ${gsort_pkg_tests}/check_bash_completion.sh ${gsort_completions}/gsort.bash)

# The other shells' checks run where the shell is installed, else skip (77).
add_test(NAME packaging.fish_completion
         COMMAND ${gsort_pkg_tests}/check_fish_completion.sh ${gsort_completions}/gsort.fish)
add_test(NAME packaging.zsh_completion_parses
         COMMAND ${gsort_pkg_tests}/check_zsh_completion.sh ${gsort_completions}/_gsort)

add_test(NAME packaging.install_tree
         COMMAND ${gsort_pkg_tests}/check_install_tree.sh ${PROJECT_BINARY_DIR} ${CMAKE_COMMAND})

# The library as another program uses it: examples/ built against an
# installed gsort (find_package and pkg-config) and run.
add_test(NAME packaging.library_examples
         COMMAND ${gsort_pkg_tests}/check_library_install.sh ${PROJECT_BINARY_DIR} ${CMAKE_COMMAND})

# Without help2man the configuration fails and names it (cmake/man_pages.cmake).
add_test(NAME packaging.man_pages_required
         COMMAND ${gsort_pkg_tests}/check_man_pages_required.sh ${PROJECT_SOURCE_DIR} ${CMAKE_COMMAND})

set_tests_properties(packaging.library_examples packaging.gsort_options_documented packaging.bash_completion
                     packaging.fish_completion packaging.zsh_completion_parses packaging.install_tree
                     packaging.man_pages_required
                     PROPERTIES LABELS packaging SKIP_RETURN_CODE 77)

# gsort loads no MPI; gsort-mpi has the distributed driver (CMakeLists.txt).
if(GSORT_HAVE_MPI)
  add_test(NAME packaging.gsort_without_mpi
           COMMAND ${gsort_pkg_tests}/check_mpi_split.sh $<TARGET_FILE:gsort> $<TARGET_FILE:gsort-mpi>)
  set_tests_properties(packaging.gsort_without_mpi PROPERTIES LABELS packaging)
endif()
