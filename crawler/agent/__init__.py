"""Tools for agents: the MCP server of ``crawler mcp`` (``server``), the tools it serves
(``tools``, plain functions with validated inputs), the URL guard (``guard``) and the bounded
fetcher (``fetch``) they share."""
