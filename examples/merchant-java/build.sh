# Sourced by ./start, ./checkout and ./verify-vectors, from the sample's folder: compiles src/ into
# build/ (ignored by git) when there is nothing there yet or a source is newer, so that a run after
# an edit runs the edit. The JDK alone: nothing is downloaded.
if [ ! -f build/merchant/Start.class ] || [ -n "$(find src -name '*.java' -newer build/merchant/Start.class)" ]; then
  # From scratch: the class of a source since deleted would stay behind.
  rm -rf build
  # javac's own JVM on its quick compiler and one GC thread: a compile this small is over before
  # the optimising one would pay off (about 2 s rather than 6 on two busy cores).
  javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC --release 17 -encoding UTF-8 -d build $(find src -name '*.java')
fi
