package dev.controllerobservability.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * Fails a test when the application breaks its committed stable-metrics contract
 * ({@code stable-metrics.yaml}, the golden file of its BETA and STABLE metrics). The
 * comparison is the tooling's {@code StableMetricsGoldenFile.differences}, given the
 * running application's reference; this module depends on neither, so the test passes it
 * in. In a test of your own controller:
 *
 * <pre class="code">
 * &#64;Autowired LiveMetrics liveMetrics;
 *
 * &#64;Test
 * void keepsTheStableMetricsContract() {
 *     StableMetricsContract.assertUnchanged(Path.of("docs/reference/stable-metrics.yaml"),
 *             (committed) -&gt; StableMetricsGoldenFile.differences(committed, liveMetrics.reference().entries()),
 *             "./mvnw verify -Dreference.update=true");
 * }
 * </pre>
 */
public final class StableMetricsContract {

	private StableMetricsContract() {
	}

	/**
	 * Fails when the committed golden file and the running application differ in a way
	 * that breaks the contract.
	 * @param goldenFile the committed {@code stable-metrics.yaml}
	 * @param differences what changed against the committed YAML it is given, one
	 * readable line per change; empty when nothing breaks the contract
	 * @param refreshCommand the command that rewrites the file after a reviewed change,
	 * printed with the changes
	 * @throws AssertionError listing every change and the refresh command
	 * @throws UncheckedIOException when the golden file cannot be read, naming it and the
	 * command that creates it
	 */
	public static void assertUnchanged(Path goldenFile, Function<String, List<String>> differences,
			String refreshCommand) {
		List<String> changes = differences.apply(read(goldenFile, refreshCommand));
		if (!changes.isEmpty()) {
			throw new AssertionError("The stable-metrics contract changed:\n  " + String.join("\n  ", changes)
					+ "\nIf the change is intended and reviewed, refresh the golden file with:\n  " + refreshCommand);
		}
	}

	private static String read(Path goldenFile, String refreshCommand) {
		try {
			return Files.readString(goldenFile);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the golden file " + goldenFile.toAbsolutePath()
					+ "; create it with: " + refreshCommand, ex);
		}
	}

}
