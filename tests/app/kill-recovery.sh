#!/bin/bash
# Never lose the student's text: warpscope-gui opens a kernel, text is "typed" into it (--test-type),
# the app is killed with SIGKILL once it has had time to autosave, and the next start must find the
# unsaved text (--recovery-status) while the file on disk is untouched.
#   kill-recovery.sh GUI KERNEL.cu WORKDIR
set -u
GUI=$1 KERNEL=$2 WORK=$3
if ! command -v xvfb-run >/dev/null; then echo "kill test skipped: xvfb-run not installed"; exit 0; fi
rm -rf "$WORK" && mkdir -p "$WORK/config"
export XDG_CONFIG_HOME="$WORK/config"
unset WARPSCOPE_NO_SETTINGS
cp "$KERNEL" "$WORK/kernel.cu"
marker="// typed before the kill $$"
if "$GUI" --recovery-status; then echo "FAIL: a fresh settings folder offers recovery"; exit 1; fi
xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
  "$0" "$1" --size 1280x800 --test-type "$2" & app=$!
  sleep 6
  kill -KILL $app; wait $app; echo "app ended with status $? (137 = SIGKILL)"' "$GUI" "$WORK/kernel.cu" "$marker"
status=$("$GUI" --recovery-status) || { echo "FAIL: no recovery offered after the kill: $status"; exit 1; }
echo "$status"
case "$status" in *"$WORK/kernel.cu"*) ;; *) echo "FAIL: the offer does not name the kernel"; exit 1 ;; esac
grep -qF "typed before the kill $$" "$XDG_CONFIG_HOME/warpscope/editor-autosave.json" || { echo "FAIL: the typed text is not in the autosave"; exit 1; }
cmp -s "$KERNEL" "$WORK/kernel.cu" || { echo "FAIL: the kernel file on disk changed"; exit 1; }
ls "$XDG_CONFIG_HOME/warpscope/" | grep -q '\.tmp' && { echo "FAIL: a temporary autosave file was left"; exit 1; }
echo "PASS: the unsaved text survived SIGKILL"
