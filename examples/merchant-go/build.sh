# Sourced by ./start, ./checkout and ./verify-vectors, from the sample's folder: builds the three
# commands into bin/ (ignored by git) when there are none yet or a source is newer than them, so
# that a run after an edit runs the edit. The standard library only: go.mod requires nothing, and
# nothing is downloaded. The first build compiles net/http, which takes a while on a fresh machine.
if [ ! -x bin/start ] || [ -n "$(find . \( -name '*.go' -o -name go.mod \) -newer bin/start)" ]; then
  go build -o bin/ ./cmd/...
  # go build leaves a binary it did not need to change as it was: its time says it is up to date.
  touch bin/start
fi
