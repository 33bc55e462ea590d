# python3 rpc-benchmark/jfr-by-library.py FILE.jfr: a JFR recording's CPU samples (jdk.ExecutionSample) by the library
# nearest the top of each stack (a sample in HashMap.put called from OpenTelemetry counts for OpenTelemetry), with
# the share whose stack holds any observation or tracing frame, the threads sampled and the top frames; see
# results/tracing-profile.md
import collections
import re
import subprocess
import sys

LIBRARIES = [  # the first prefix that matches names the library
    ("ferry-observation", "io.ferry.rpc.config.internal.observation."),
    ("ferry-observation", "io.ferry.rpc.config.observation."),
    ("micrometer-tracing", "io.micrometer.tracing."),
    ("micrometer-observation", "io.micrometer.observation."),
    ("micrometer-core", "io.micrometer.core."),
    ("micrometer-common", "io.micrometer.common."),
    ("prometheus", "io.prometheus."),
    ("otel-sdk", "io.opentelemetry.sdk."),
    ("otel-api", "io.opentelemetry.api."),
    ("otel-context", "io.opentelemetry.context."),
    ("ferry", "io.ferry."),
    ("netty", "io.netty."),
    ("jmh", "org.openjdk.jmh."),
]
TRACING = ("io.micrometer.", "io.opentelemetry.", "io.prometheus.", "io.ferry.rpc.config.internal.observation.",
           "io.ferry.rpc.config.observation.")


def library(frames):
    for frame in frames:
        for name, prefix in LIBRARIES:
            if frame.startswith(prefix):
                return name
    return "other (JDK)"


recording = sys.argv[1]
printed = subprocess.Popen(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "96", recording],
                           stdout=subprocess.PIPE, text=True)
by_library, by_thread, top_frames = collections.Counter(), collections.Counter(), collections.Counter()
total = tracing = 0
frames = thread = None
for line in printed.stdout:
    s = line.strip()
    if s.startswith("jdk.ExecutionSample"):
        frames, thread = [], None
    elif frames is None:
        continue
    elif s.startswith("sampledThread"):
        thread = re.sub(r"-\d+$", "", re.sub(r"\(javaThreadId.*", "", s.split("=", 1)[1]).strip().strip('"'))
    elif s == "}":
        total += 1
        by_thread[thread] += 1
        by_library[library(frames)] += 1
        tracing += any(frame.startswith(TRACING) for frame in frames)
        if frames:
            top_frames[frames[0].split("(")[0]] += 1
        frames = None
    elif s and s != "]" and not s.startswith(("startTime", "state", "stackTrace", "...")):
        frames.append(s)
print(f"{recording}: {total} samples; any observation/tracing frame on the stack: {tracing} "
      f"({100 * tracing / max(total, 1):.1f}%)")
for name, n in by_library.most_common():
    print(f"  {name:24s} {n:7d} {100 * n / total:5.1f}%")
print("threads:", ", ".join(f"{t} {100 * n / total:.0f}%" for t, n in by_thread.most_common(8)))
print("top frames:")
for frame, n in top_frames.most_common(25):
    print(f"  {100 * n / total:5.1f}% {frame}")
