"""The migration knowledge base: mapping tables, parameter facts and API inventories."""

from msmigrate.knowledge.base import KnowledgeBase, get_knowledge_base
from msmigrate.knowledge.model import MappingCategory, MappingRow, MappingTable

__all__ = ["KnowledgeBase", "MappingCategory", "MappingRow", "MappingTable", "get_knowledge_base"]
