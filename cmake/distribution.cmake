# Everything about shipping gsort, one file per job.
include(GNUInstallDirs)
include(cmake/build_info.cmake)
include(cmake/man_pages.cmake)
include(cmake/install.cmake)
include(cmake/package.cmake)
if(GSORT_BUILD_TESTS)
  include(cmake/packaging_tests.cmake)
endif()
