import sys, subprocess, re, collections
# python3 rpc-benchmark/jfr-by-library.py FILE.jfr: a JFR recording's CPU samples (jdk.ExecutionSample) by the library
# nearest the top of each stack (a sample in HashMap.put called from OpenTelemetry counts for OpenTelemetry), with
# the share whose stack holds any observation or tracing frame; see results/tracing-profile.md
CATS = [
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
TRACING = ("io.micrometer.", "io.opentelemetry.", "io.ferry.rpc.config.internal.observation.", "io.prometheus.")
f = sys.argv[1]
p = subprocess.Popen(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "96", f], stdout=subprocess.PIPE, text=True)
self_by = collections.Counter(); incl = 0; total = 0; thread_by = collections.Counter(); top_frames = collections.Counter()
frames = None; thread = None
for line in p.stdout:
    s = line.strip()
    if s.startswith("jdk.ExecutionSample"):
        frames = []; thread = None
    elif s.startswith("sampledThread"):
        thread = re.sub(r'\(javaThreadId.*', '', s.split("=",1)[1]).strip().strip('"')
        thread = re.sub(r'-\d+$', '', thread)
    elif s.startswith("stackTrace = ["):
        pass
    elif s == "]":
        pass
    elif s == "}" and frames is not None:
        total += 1
        thread_by[thread] += 1
        cat = "other(jdk...)"
        for fr in frames:
            hit = next((c for c, pre in CATS if fr.startswith(pre)), None)
            if hit:
                cat = hit; break
        self_by[cat] += 1
        if any(fr.startswith(TRACING) for fr in frames):
            incl += 1
            # the outermost tracing frame's method, to see which entry point costs
        if frames:
            top_frames[frames[0].split("(")[0]] += 1
        frames = None
    elif frames is not None and s and not s.startswith(("startTime", "state", "...")):
        frames.append(s)
print(f"{f}: {total} samples; any observation/tracing frame on the stack: {incl} ({100*incl/max(total,1):.1f}%)")
for c, n in self_by.most_common():
    print(f"  {c:24s} {n:7d} {100*n/total:5.1f}%")
print("threads:", ", ".join(f"{t} {100*n/total:.0f}%" for t, n in thread_by.most_common(8)))
print("top frames:")
for fr, n in top_frames.most_common(25):
    print(f"  {100*n/total:5.1f}% {fr}")
