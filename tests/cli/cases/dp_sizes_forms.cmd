stats dp --steps 4 --sizes sizes_forms --budget 5KiB --json
