import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      ".release/**",
      "node_modules/**",
      ".pulumi-cli/**",
      "coverage/**",
      "**/node_modules/**",
      "provider/sdk/nodejs/**",
      "test/e2e/golden/*/**",
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-require-imports": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
);
