stats dp -n 4 -sizes sizes_forms -b 5KiB
