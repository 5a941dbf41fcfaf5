"""The evidence safety chain: drafts, guard verdicts, fallbacks and the release decision."""
