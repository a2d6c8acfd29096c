package dev.controllerobservability.test.leakfixture;

import java.util.List;

import dev.controllerobservability.test.leakfixture.internal.Hidden;

/** A public type whose API names {@link Hidden}, and members that may name it. */
public class LeakingApi {

	protected Hidden field;

	public LeakingApi(Hidden hidden) {
		this.field = hidden;
	}

	LeakingApi() {
		this.field = new Hidden();
	}

	public List<? extends Hidden> hiddens() {
		return List.of();
	}

	public String name() {
		return "api";
	}

	private Hidden privately() {
		return this.field;
	}

	Hidden packagePrivately() {
		return privately();
	}

	static class NotApi extends Hidden {

		public Hidden hidden() {
			return new Hidden();
		}

	}

	/** A nested API type. */
	public static class Nested extends Hidden {

	}

}
