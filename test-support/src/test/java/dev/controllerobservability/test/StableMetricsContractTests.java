package dev.controllerobservability.test;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class StableMetricsContractTests {

	@TempDir
	Path directory;

	@Test
	void comparesWithTheCommittedFileAndPassesWhenNothingChanged() throws Exception {
		Path golden = Files.writeString(this.directory.resolve("stable-metrics.yaml"), "- name: a_total\n");
		List<String> seen = new ArrayList<>();
		StableMetricsContract.assertUnchanged(golden, (committed) -> {
			seen.add(committed);
			return List.of();
		}, "./refresh");
		assertThat(seen).containsExactly("- name: a_total\n");
	}

	@Test
	void failsListingEveryChangeAndTheRefreshCommand() throws Exception {
		Path golden = Files.writeString(this.directory.resolve("stable-metrics.yaml"), "[]\n");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> StableMetricsContract.assertUnchanged(golden,
					(committed) -> List.of("STABLE metric a_total disappeared", "BETA metric b_seconds changed type"),
					"./refresh"))
			.withMessage("The stable-metrics contract changed:\n" + "  STABLE metric a_total disappeared\n"
					+ "  BETA metric b_seconds changed type\n"
					+ "If the change is intended and reviewed, refresh the golden file with:\n  ./refresh");
	}

	@Test
	void namesTheMissingGoldenFileAndTheCommandThatCreatesIt() {
		Path missing = this.directory.resolve("stable-metrics.yaml");
		assertThatExceptionOfType(UncheckedIOException.class)
			.isThrownBy(() -> StableMetricsContract.assertUnchanged(missing, (committed) -> List.of(), "./refresh"))
			.withMessage("Cannot read the golden file " + missing.toAbsolutePath() + "; create it with: ./refresh");
	}

}
