package dev.controllerobservability.demo;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BinPackerTests {

	private final BinPacker packer = new BinPacker();

	@Test
	void packsLargestPodsFirstOntoTheFirstNodeWithRoom() {
		List<NodeClaim> claims = this.packer.pack(
				List.of(pod("a", 10000, 1024), pod("b", 8000, 1024), pod("c", 5000, 1024), pod("d", 1000, 512)), false);
		assertThat(claims).extracting((claim) -> claim.pods().stream().map(Pod::name).toList())
			.containsExactly(List.of("a", "c", "d"), List.of("b"));
		assertThat(claims).extracting((claim) -> claim.instanceType().name())
			.containsExactly("m5.4xlarge", "c5.2xlarge");
	}

	@Test
	void shrinksEachNodeToTheSmallestFittingType() {
		List<NodeClaim> claims = this.packer.pack(List.of(pod("a", 500, 512), pod("b", 500, 512)), false);
		assertThat(claims).singleElement()
			.satisfies((claim) -> assertThat(claim.instanceType().name()).isEqualTo("m5.large"));
	}

	@Test
	void usesGpuTypesForGpuPods() {
		List<NodeClaim> claims = this.packer.pack(List.of(pod("a", 3000, 4096)), true);
		assertThat(claims).singleElement()
			.satisfies((claim) -> assertThat(claim.instanceType().name()).isEqualTo("g4dn.xlarge"));
	}

	@Test
	void rejectsPodsThatFitNoInstanceType() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.packer.pack(List.of(pod("huge", 64000, 1)), false))
			.withMessage("Pod huge fits no instance type");
	}

	private static Pod pod(String name, int cpu, int memory) {
		return new Pod(name, "default", cpu, memory);
	}

}
