# Link jemalloc into an executable so that it becomes the process's
# allocator: uturn finds it at run time (dlsym) and keeps slots in an arena
# of its own. Nothing calls jemalloc by name, so the link must not be
# dropped as unneeded. Sanitizer builds skip it (ASan cannot see jemalloc's
# memory). Sets UTURN_HAVE_JEMALLOC.
find_package(PkgConfig REQUIRED)
pkg_check_modules(JEMALLOC IMPORTED_TARGET jemalloc)
if(JEMALLOC_FOUND AND NOT UTURN_SANITIZE)
  set(UTURN_HAVE_JEMALLOC ON)
else()
  set(UTURN_HAVE_JEMALLOC OFF)
endif()

function(uturn_link_jemalloc target)
  if(UTURN_HAVE_JEMALLOC)
    target_link_options(${target} PRIVATE "LINKER:--no-as-needed")
    target_link_libraries(${target} PRIVATE PkgConfig::JEMALLOC)
  endif()
endfunction()
