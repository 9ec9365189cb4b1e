#!/bin/sh
# count_accesses.sh PMUSIM ELF LOG ADDRESS=COUNT... -- runs `pmusim firmware -q --el 1 --log-json LOG ELF`
# (it must pass) and checks that the access log holds exactly COUNT accesses to each ADDRESS.
pmusim=$1 elf=$2 log=$3
shift 3
"$pmusim" firmware -q --el 1 --log-json "$log" "$elf" || { echo "the firmware did not pass"; exit 1; }
status=0
for pair in "$@"; do
    address=${pair%=*} expected=${pair#*=}
    found=$(grep -c "\"address\":\"$address\"" "$log")
    if [ "$found" -ne "$expected" ]; then
        echo "$address: $found accesses in $log, expected $expected"
        status=1
    fi
done
exit $status
