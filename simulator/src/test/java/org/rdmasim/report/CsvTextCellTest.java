package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** CSV text cells are neutralised; the numbers beside them are written as numbers, minus sign and all. */
class CsvTextCellTest {
    @Test
    void textCellsStartingWithFormulaCharactersGetAnApostropheAndNumbersKeepTheirSign() {
        assertEquals("'=1+1", CsvTables.csv("=1+1"));
        assertEquals("'+1", CsvTables.csv("+1"));
        assertEquals("'-x", CsvTables.csv("-x"));
        assertEquals("'@A1", CsvTables.csv("@A1"));
        assertEquals("\"'=A1,B1\"", CsvTables.csv("=A1,B1"));
        assertEquals("host:mlx5_0", CsvTables.csv("host:mlx5_0"));
        assertEquals("a\\x1B[2Jb\\x00", CsvTables.csv("a\u001b[2Jb\u0000"));
        assertEquals('-', CsvTables.num(-1.5).charAt(0));
        assertEquals(-1.5, Double.parseDouble(CsvTables.num(-1.5)));
    }
}
