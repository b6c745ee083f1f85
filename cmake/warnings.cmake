# Warnings and sanitizers for every target the project compiles.
function(uturn_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wstrict-prototypes
    -Wmissing-prototypes -Wcast-qual -Wwrite-strings -Wvla -Wundef)
  if(UTURN_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(UTURN_SANITIZE)
  add_compile_options(-fsanitize=${UTURN_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${UTURN_SANITIZE})
endif()
