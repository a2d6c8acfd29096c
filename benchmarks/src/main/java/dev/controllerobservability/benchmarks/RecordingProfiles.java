package dev.controllerobservability.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.openjdk.jmh.profile.AsyncProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Profiles of the recording benchmarks whose targets a run missed: async-profiler (the
 * library from {@code tools.profiler:async-profiler}, through JMH's profiler for it)
 * samples the benchmark thread on a CPU timer, without the safepoint bias of a
 * {@code Thread.getStackTrace} sampler, and counts the methods on top of its stack, so
 * that the report shows where the time of a missed row goes.
 */
final class RecordingProfiles {

	/** Methods kept per profile. */
	private static final int TOP = 12;

	private RecordingProfiles() {
	}

	/**
	 * Profiles benchmark methods of {@link RecordingBenchmark}, one thread each.
	 * @param methods the benchmark method names
	 * @param work a directory for the profiler's files
	 * @return each method's flat profile, or nothing where async-profiler has no library
	 * for this platform
	 * @throws RunnerException if JMH fails
	 * @throws IOException if the library cannot be unpacked
	 */
	static Map<String, String> run(Collection<String> methods, Path work) throws RunnerException, IOException {
		Map<String, String> profiles = new LinkedHashMap<>();
		Path library = library(work);
		if (library == null) {
			System.out.println("No async-profiler library for this platform: the report has no profiles");
			return profiles;
		}
		for (String method : methods) {
			OptionsBuilder options = new OptionsBuilder();
			options.include(RecordingBenchmark.class.getName() + "\\." + method + "$")
				.threads(1)
				.forks(1)
				.warmupIterations(3)
				.warmupTime(TimeValue.seconds(1))
				.measurementIterations(5)
				.measurementTime(TimeValue.seconds(1))
				.addProfiler(AsyncProfiler.class, "libPath=" + library + ";event=itimer;output=text;flat=" + TOP
						+ ";traces=0;dir=" + work.resolve("profiles"));
			for (RunResult result : new Runner(options.build()).run()) {
				Result<?> profile = result.getSecondaryResults().get("async");
				if (profile != null) {
					profiles.put(method, flatSection(profile.extendedInfo()));
				}
			}
		}
		return profiles;
	}

	/** The profiler's table of methods on top of the stack, without header and files. */
	private static String flatSection(String output) {
		int start = output.indexOf("          ns  percent");
		String table = (start < 0) ? output : output.substring(start);
		// Without the paths of the profiler's files, which a run deletes.
		int files = table.indexOf("Async profiler results:");
		return ((files < 0) ? table : table.substring(0, files)).stripTrailing();
	}

	/** Unpacks the native library the async-profiler jar carries for this platform. */
	private static Path library(Path work) throws IOException {
		String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
		String arch = System.getProperty("os.arch");
		if (!os.contains("linux")) {
			return null;
		}
		String platform = arch.equals("aarch64") ? "linux-arm64" : (arch.equals("amd64") ? "linux-x64" : null);
		if (platform == null) {
			return null;
		}
		try (InputStream in = RecordingProfiles.class.getResourceAsStream("/" + platform + "/libasyncProfiler.so")) {
			if (in == null) {
				return null;
			}
			Path library = work.resolve("libasyncProfiler.so");
			Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
			return library;
		}
	}

}
