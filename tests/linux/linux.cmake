# `pmusim linux` tests (docs/linux.md "The tests"). The loader's bad-input tests and the device
# tree test need no kernel: a minimal Image (tests/linux/tiny_image.py) calls PSCI SYSTEM_OFF.
# The boot tests need the Linux kit (scripts/linux-kit.sh, cached in build/linux-kit); they skip
# (exit 77) only when the kit cannot be fetched.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(LINUX_TEST_DIR ${CMAKE_BINARY_DIR}/tests/linux)
set(LINUX_SRC ${CMAKE_SOURCE_DIR}/tests/linux)
set(LINUX_KIT_DIR ${CMAKE_BINARY_DIR}/linux-kit)
file(MAKE_DIRECTORY ${LINUX_TEST_DIR})
set(LINUX_ENV "SC_COPYRIGHT_MESSAGE=DISABLE")

function(linux_test name)
  add_test(NAME "linux: ${name}" COMMAND ${ARGN})
  set_tests_properties("linux: ${name}" PROPERTIES ENVIRONMENT ${LINUX_ENV} TIMEOUT 120 SKIP_RETURN_CODE 77)
endfunction()

# Inputs made at test time (sizes and contents written by the tests themselves).
add_test(NAME "linux: make test inputs"
  COMMAND sh -c "${Python3_EXECUTABLE} ${LINUX_SRC}/tiny_image.py tiny.Image && \
${Python3_EXECUTABLE} ${LINUX_SRC}/tiny_image.py big-endian.Image --big-endian && \
${Python3_EXECUTABLE} ${LINUX_SRC}/tiny_image.py bad-magic.Image --magic 0x644d5242 && \
printf 'not a cpio' > small.cpio && truncate -s 300M huge.cpio && truncate -s 253M large.cpio && \
printf 'this is no device tree blob and no kernel either, just plain text of some length, longer than 64 bytes' > garbage.dtb && \
dtc -q -I dts -O dtb -o whole.dtb ${LINUX_SRC}/minimal.dts && head -c 100 whole.dtb > truncated.dtb"
  WORKING_DIRECTORY ${LINUX_TEST_DIR})
set_tests_properties("linux: make test inputs" PROPERTIES FIXTURES_SETUP linux_inputs TIMEOUT 300)

set(EXPECT ${Python3_EXECUTABLE} ${LINUX_SRC}/expect_output.py)
set(RUN $<TARGET_FILE:pmusim> linux)
function(linux_input_test name)
  linux_test("${name}" ${ARGN})
  set_tests_properties("linux: ${name}" PROPERTIES FIXTURES_REQUIRED linux_inputs WORKING_DIRECTORY ${LINUX_TEST_DIR})
endfunction()
linux_input_test("a minimal Image boots and powers off with PSCI SYSTEM_OFF: exit 0"
  ${EXPECT} 0 --match "PSCI SYSTEM_OFF after" -- ${RUN} --kernel tiny.Image --initrd small.cpio)
# The debugging options on `pmusim linux` (docs/debugging.md): the trace of the minimal Image holds
# its four instructions (the header's branch, MOVZ, MOVK, SMC #0: tiny_image.py's words), the last the PSCI SMC.
linux_input_test("--trace: the minimal Image's instructions and its SMC in the trace"
  sh -c "$<TARGET_FILE:pmusim> linux --kernel tiny.Image --initrd small.cpio --trace insn=tiny-trace.jsonl >/dev/null && \
grep -c '\"kind\":\"insn\"' tiny-trace.jsonl | grep -qx 4 && grep -q '\"disasm\":\"smc #0\"' tiny-trace.jsonl")
linux_input_test("bad input: a file that is not an arm64 Image exits 2 naming it"
  ${EXPECT} 2 --match "^pmusim: .*garbage.dtb.*not an arm64 Linux Image: expected the magic 0x644d5241" --
  ${RUN} --kernel garbage.dtb --initrd small.cpio)
linux_input_test("bad input: a wrong Image magic exits 2 naming the file"
  ${EXPECT} 2 --match "^pmusim: .*bad-magic.Image.*found 0x644d5242" -- ${RUN} --kernel bad-magic.Image)
linux_input_test("bad input: a big-endian Image exits 2 naming the file"
  ${EXPECT} 2 --match "^pmusim: .*big-endian.Image.*big-endian arm64 Image" -- ${RUN} --kernel big-endian.Image)
linux_input_test("bad input: an initramfs larger than memory exits 2 naming it"
  ${EXPECT} 2 --match "^pmusim: .*huge.cpio.*larger than the platform's memory \\(268435456 bytes\\)" --
  ${RUN} --kernel tiny.Image --initrd huge.cpio)
linux_input_test("bad input: an initramfs that does not fit beside the kernel and DTB exits 2 naming it"
  ${EXPECT} 2 --match "^pmusim: .*large.cpio.*does not fit in memory" -- ${RUN} --kernel tiny.Image --initrd large.cpio)
linux_input_test("bad input: a DTB that does not parse exits 2 naming it"
  ${EXPECT} 2 --match "^pmusim: .*garbage.dtb.*not a device tree blob: expected the magic 0xd00dfeed" --
  ${RUN} --kernel tiny.Image --initrd small.cpio --dtb garbage.dtb)
linux_input_test("bad input: a truncated DTB exits 2 naming it"
  ${EXPECT} 2 --match "^pmusim: .*truncated.dtb.*device tree blob truncated" --
  ${RUN} --kernel tiny.Image --initrd small.cpio --dtb truncated.dtb)
linux_input_test("bad input: a missing kernel exits 2 naming it"
  ${EXPECT} 2 --match "^pmusim: .*no-such.Image.*no such file" -- ${RUN} --kernel no-such.Image)
string(REPEAT "a" 2048 LONG_APPEND) # with the generated arguments, past COMMAND_LINE_SIZE - 1 = 2047 bytes
linux_input_test("bad input: a kernel command line longer than Linux keeps exits 2 naming --append"
  ${EXPECT} 2 --match "^pmusim: --append: the kernel command line would be 2[0-9]+ bytes; Linux keeps at most 2047" --
  ${RUN} --kernel tiny.Image --initrd small.cpio --append ${LONG_APPEND})
linux_input_test("the generated device tree follows Linux 6.1's bindings and the platform"
  ${Python3_EXECUTABLE} ${LINUX_SRC}/check_device_tree.py $<TARGET_FILE:pmusim> tiny.Image dt ${LINUX_KIT_DIR})

# Boot tests on Debian's kernel (tests/linux/boot_test.py, guest scripts in tests/linux/guest/).
# The kit is fetched once per build tree (build/linux-kit) by the fixture; each test skips (77)
# only when it cannot be. The single-topic ones below stay opt-in to keep CI's Linux time down (the
# two 4-CPU tests after them cover all but `overflow`; docs/linux.md "How far it boots"):
# configure with -DPMUSIM_LINUX_BOOT_TESTS=ON to run them.
option(PMUSIM_LINUX_BOOT_TESTS "Run the Linux boot tests (they need the kit: scripts/linux-kit.sh)" OFF)
add_test(NAME "linux: kit" COMMAND sh -c "${CMAKE_SOURCE_DIR}/scripts/linux-kit.sh ${LINUX_KIT_DIR} || exit 77")
set_tests_properties("linux: kit" PROPERTIES FIXTURES_SETUP linux_kit TIMEOUT 900 SKIP_RETURN_CODE 77
)
function(linux_boot_test name title)
  linux_test("${title}" ${Python3_EXECUTABLE} ${LINUX_SRC}/boot_test.py ${name} --pmusim $<TARGET_FILE:pmusim>
    --kit ${LINUX_KIT_DIR} --src ${LINUX_SRC} --work ${LINUX_TEST_DIR}/boot ${ARGN})
  set(disabled TRUE)
  if(PMUSIM_LINUX_BOOT_TESTS)
    set(disabled FALSE)
  endif()
  set_tests_properties("linux: ${title}" PROPERTIES FIXTURES_REQUIRED linux_kit TIMEOUT 240 DISABLED ${disabled})
endfunction()
linux_boot_test(pmus "arm_dsu_0 and arm_cmn_0 are registered with their events")
linux_boot_test(dsu_perf "perf stat arm_dsu_0/cycles/ equals the driver's counter deltas and DSU clock x interval")
linux_boot_test(cmn_perf "perf stat on the CMN DTC cycles and an HN-F event equals the driver's counter deltas")
linux_boot_test(overflow "a DSU counter overflow interrupt is handled by arm_dsu_pmu" -C dsu0.variant=original)
linux_boot_test(amu "the AMU core-cycle counter the kernel reads advances with the CPU clock")
# Enabled in every build, on all 4 CPUs of arm-linux's cluster (about 30 s each on the shared
# 2-core machine since SMP quanta end at block boundaries: docs/linux.md "How far it boots"):
# - the boot: 4 processors, the AMU detected on each CPU, and the kernel's AMU frequency
#   invariance (cpufreq-dt) reading AMEVCNTR0<0,1> on each CPU's scheduler ticks = the clocks;
# - perf on the drivers: arm_dsu_0 attached to every CPU of the cluster, `perf stat -a` on the DSU
#   and the CMN exact against the drivers' own deltas and the clocks (guest/perf.sh, as on 1 CPU).
foreach(t boot perf)
  if(t STREQUAL "boot")
    set(title "Debian's kernel boots to /init on 4 CPUs, detects the AMU on each and reads it at every tick")
  else()
    set(title "Debian's perf stat -a counts arm_dsu_0 (attached to all 4 CPUs) and arm_cmn_0 exactly on 4 CPUs")
  endif()
  linux_test("${title}" ${Python3_EXECUTABLE} ${LINUX_SRC}/boot_test.py ${t} --pmusim $<TARGET_FILE:pmusim>
    --kit ${LINUX_KIT_DIR} --src ${LINUX_SRC} --work ${LINUX_TEST_DIR}/${t}4)
  set_tests_properties("linux: ${title}" PROPERTIES FIXTURES_REQUIRED linux_kit TIMEOUT 240)
endforeach()
# Enabled in every build: the boot on one CPU (maxcpus=1; boot_test.py --cpus 1), which reaches /init,
# runs the guest script and powers off in about 1 G instructions (docs/linux.md "How far it boots").
# It starts the kernel at EL2 (`--el 2`, as a hypervisor-capable loader does: the hyp stub, EL2
# untranslated while EL1's MMU is on); every other Linux test starts at EL1.
# The other four-CPU tests above stay opt-in (the two below cover them in two boots).
linux_test("Debian's kernel started at EL2 boots to /init on 1 CPU, detects the AMU and powers off"
  ${Python3_EXECUTABLE} ${LINUX_SRC}/boot_test.py boot --pmusim $<TARGET_FILE:pmusim>
  --kit ${LINUX_KIT_DIR} --src ${LINUX_SRC} --work ${LINUX_TEST_DIR}/boot1 --cpus 1 --el 2)
set_tests_properties("linux: Debian's kernel started at EL2 boots to /init on 1 CPU, detects the AMU and powers off"
  PROPERTIES FIXTURES_REQUIRED linux_kit TIMEOUT 240)
# Enabled in every build (one boot, 1 CPU, about 25 s with its initramfs): Debian's own drivers
# register arm_dsu_0 and arm_cmn_0, and Debian's own perf stat counts on them exactly: perf's
# counts = the deltas the drivers read from our registers (the access log) = the DSU / CMN clock x
# the time the counters were enabled, and the platform's HN-F event rate (boot_test.py check_perf).
linux_test("Debian's perf stat counts arm_dsu_0 and arm_cmn_0 exactly: driver deltas and clock x enabled time (1 CPU)"
  ${Python3_EXECUTABLE} ${LINUX_SRC}/boot_test.py perf --pmusim $<TARGET_FILE:pmusim>
  --kit ${LINUX_KIT_DIR} --src ${LINUX_SRC} --work ${LINUX_TEST_DIR}/perf1 --cpus 1)
set_tests_properties("linux: Debian's perf stat counts arm_dsu_0 and arm_cmn_0 exactly: driver deltas and clock x enabled time (1 CPU)"
  PROPERTIES FIXTURES_REQUIRED linux_kit FIXTURES_SETUP linux_perf_log TIMEOUT 240)
# The reference mode under Linux: every access Debian's drivers made to the DSU and the CMN in that
# run (its access log), replayed at the same instants with `pmusim run` in fast and in per-cycle
# reference mode: each read gives the value the driver read (tests/linux/replay_units.py; about
# 20 s, the reference mode's 6.5 ms of simulated time).
linux_test("the drivers' DSU and CMN accesses under Linux read the same values in the reference mode"
  sh -c "${Python3_EXECUTABLE} ${LINUX_SRC}/replay_units.py perf1/perf.jsonl replay.seq && \
$<TARGET_FILE:pmusim> run -q replay.seq && $<TARGET_FILE:pmusim> run -q --reference replay.seq")
set_tests_properties("linux: the drivers' DSU and CMN accesses under Linux read the same values in the reference mode"
  PROPERTIES FIXTURES_REQUIRED linux_perf_log WORKING_DIRECTORY ${LINUX_TEST_DIR} TIMEOUT 240)
# Enabled in every build (1 CPU, about 21 s): a DSU counter overflow taken by the driver. The
# `original` DSU variant has the 32-bit event counters Linux 6.1's arm_dsu_pmu.c assumes (on a
# DSU-110, whose event counters are 64 bits wide, that driver never sees an overflow: docs/linux.md).
linux_test("a DSU counter overflow interrupt is handled by Debian's arm_dsu_pmu and perf's count stays exact (1 CPU)"
  ${Python3_EXECUTABLE} ${LINUX_SRC}/boot_test.py overflow --pmusim $<TARGET_FILE:pmusim>
  --kit ${LINUX_KIT_DIR} --src ${LINUX_SRC} --work ${LINUX_TEST_DIR}/overflow1 --cpus 1 --time-limit 30s -C dsu0.variant=original)
set_tests_properties("linux: a DSU counter overflow interrupt is handled by Debian's arm_dsu_pmu and perf's count stays exact (1 CPU)"
  PROPERTIES FIXTURES_REQUIRED linux_kit TIMEOUT 240)
# The time limit ends the run at its instant in fast mode as in the reference mode: 100 us of
# Debian's early boot on one 2 GHz CPU (one instruction per cycle) is 200000 instructions (until
# 2026-12-05 the fast mode ran on to the kernel's first device access, 9.65 M instructions).
linux_test("the time limit stops Debian's kernel at its instant: 100 us at 2 GHz is 200000 instructions"
  ${EXPECT} 1 --match "time limit reached after 100 us simulated, 200000 instructions" --
  ${RUN} --kernel ${LINUX_KIT_DIR}/Image --append maxcpus=1 --time-limit 100us)
set_tests_properties("linux: the time limit stops Debian's kernel at its instant: 100 us at 2 GHz is 200000 instructions"
  PROPERTIES FIXTURES_REQUIRED linux_kit)

# Every test that runs Debian's kernel (the kit, and whatever needs the kit or the perf run's log)
# carries the label `kernel`: the sanitized stage leaves them out with `ctest -LE kernel`
# (scripts/sanitize.sh, docs/reliability.md "What the sanitized run skips"), the Release stage runs them.
get_property(pmusim_all_tests DIRECTORY PROPERTY TESTS)
foreach(t IN LISTS pmusim_all_tests)
  get_test_property("${t}" FIXTURES_REQUIRED required)
  get_test_property("${t}" FIXTURES_SETUP provided)
  if("${required};${provided}" MATCHES "linux_kit|linux_perf_log")
    set_property(TEST "${t}" APPEND PROPERTY LABELS kernel)
  endif()
endforeach()
# scripts/linux-perf-demo.sh (the README's Linux command) refuses a CPU count arm-linux's cluster
# does not have before it builds or boots anything; its boot is the 1-CPU perf test's.
linux_test("linux-perf-demo.sh refuses a CPU count outside 1-4: exit 2"
  ${EXPECT} 2 --match "CPUS must be 1 to 4" -- ${CMAKE_SOURCE_DIR}/scripts/linux-perf-demo.sh 9)
