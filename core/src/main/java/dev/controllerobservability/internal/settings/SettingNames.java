package dev.controllerobservability.internal.settings;

/**
 * How messages at run time name a setting the user can change: plain Java names the
 * builder method, the Spring Boot path the property.
 */
public enum SettingNames {

	/** Names {@link Setting#builderCall()}: the core builder wired the parts. */
	BUILDER {
		@Override
		public String of(Setting setting) {
			return setting.builderCall();
		}

		@Override
		public String brief(Setting setting) {
			return setting.builderCall().substring(Setting.BUILDER.length());
		}
	},

	/** Names {@code controller.observability.<property>}: Spring Boot wired the parts. */
	PROPERTIES {
		@Override
		public String of(Setting setting) {
			return "controller.observability." + setting.property();
		}

		@Override
		public String brief(Setting setting) {
			return setting.property();
		}
	};

	/**
	 * How to record operation durations as Micrometer timers again, the fix of a name
	 * that the prometheus backend and a Micrometer meter both want.
	 * @return the fix, such as
	 * {@code set controller.observability.operations.backend=micrometer}
	 */
	public String micrometerBackend() {
		return (this == PROPERTIES) ? "set " + of(Setting.OPERATIONS_BACKEND) + "=micrometer"
				: "leave out " + of(Setting.OPERATIONS_BACKEND);
	}

	/**
	 * The name of a setting in a message.
	 * @param setting the setting
	 * @return its name
	 */
	public abstract String of(Setting setting);

	/**
	 * The short name of a setting, in a message that already says which path set it.
	 * @param setting the setting
	 * @return the property below {@code controller.observability}, such as
	 * {@code disabled-metrics}, or the builder method, such as {@code disabledMetrics(…)}
	 */
	public abstract String brief(Setting setting);

}
